#!/usr/bin/env bash
# bench/injectors.sh N SIMULATION [-Dname=value...]: N injectors of one couchbench run on this machine, started
# exactly as the Kubernetes Job starts them (deploy/kubernetes/injector.sh, the same environment variables
# JOB_COMPLETION_INDEX, INJECTORS, SIMULATION, START_AT, OUT, the same arguments -Dinjector=I/N -DstartAt=..., the same
# folders $OUT/injector-I), then merged into one result with Merge, all in reports/<simulation>-merged-<timestamp>/
# (the injectors' folders under its injectors/), which reports/lastRun.txt then names. Against loopback servers only: the memcached or
# pouchdb-server it starts itself on a free port, or the 127.0.0.1 one the properties name.
#
#   bench/injectors.sh 2 MemSet -Dusers=8 -Dduration=60
#   bench/injectors.sh 1 MemSet -Dusers=8 -Dduration=60          # the same path with one injector, to compare
#   bench/injectors.sh 2 CouchSet -Dusers=4 -Dduration=10
#   bench/injectors.sh 2 ViewQuery -Drate=40 -Dconns=400
#
# START_DELAY (default 30) is how many seconds ahead the agreed start is; LIMIT (bench/lib.sh, 300) bounds each
# injector. It prints each injector's and the merged rate of every measured request, the servers' counts against
# what was acknowledged, and how long Merge took (needs jq). On one machine the injectors share its cores: see docs/scale-out.md.
# An injector that ends without results (killed, or not ended in LIMIT s) loses nothing of the others': they are merged,
# and the merged results, the last line and the exit status (3) say "2 of 3 injectors; injector 2/3: why".
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]?$ ]]; then
  echo "usage: $0 N SIMULATION [-Dname=value...]   (N from 1 to 99)" >&2
  exit 1
fi
n=$1 simulation=$2
shift 2
# shellcheck source=bench/lib.sh
source bench/lib.sh

given() { # given NAME ARGS...: the value of the last -DNAME=... among ARGS, empty when there is none
  local name=$1 property value=
  shift
  for property in "$@"; do
    if [[ $property == -D$name=* ]]; then value=${property#-D$name=}; fi
  done
  echo "$value"
}
memcache_servers=$(given memcache.servers "$@")
couchdb_url=$(given couchdb.url "$@")
for target in ${memcache_servers//,/ } $couchdb_url; do
  [[ $target =~ ^(http://)?(127\.0\.0\.1|\[::1\]|localhost): ]] || {
    echo "$target is not a loopback server: bench/injectors.sh loads only this machine's 127.0.0.1" >&2; exit 1; }
done
targets=()
case $simulation in
  MemSet|MemGet)
    if [ -z "$memcache_servers" ]; then bench_start_memcached injectors; targets=(-Dmemcache.servers="$SERVER"); fi ;;
  CouchVsMemcache)
    [ -n "$memcache_servers" ] && [ -n "$couchdb_url" ] || {
      echo "CouchVsMemcache: give -Dmemcache.servers and -Dcouchdb.url (loopback servers you started)" >&2; exit 1; } ;;
  *)
    if [ -z "$couchdb_url" ]; then bench_start_pouchdb injectors; targets=(-Dcouchdb.url="$URL"); fi ;;
esac
[ -n "${out:-}" ] || bench_out injectors
bench_classpath

start_at=$(date -u -d "+${START_DELAY:-30} seconds" +%Y-%m-%dT%H:%M:%SZ)
# Beside the other runs, named as Gatling names a run folder and as Merge names a merged one
# (RunFolders.ownName): the merged result in reports/<simulation>-merged-<UTC timestamp>/, the injectors'
# folders and logs inside it, under injectors/. The server's data and the classpath stay in $out.
merged=$PWD/reports/$(echo "$simulation" | tr '[:upper:]' '[:lower:]')-merged-$(date -u +%Y%m%d%H%M%S%3N)
injectors=$merged/injectors
mkdir -p "$injectors"
touch "$injectors/collected" # the folders are here already: nothing to wait for, as a pod waits for kubectl cp
echo "injectors: $n x $simulation, load at $start_at, folders under $injectors"
# An injector's run folder: the one its run named in its reports/lastRun.txt as its load started; none for an
# injector that did not get that far.
run_folder() {
  local named
  named=$(cat "$injectors/injector-$1/reports/lastRun.txt" 2>/dev/null) && [ -n "$named" ] &&
    echo "$injectors/injector-$1/reports/$named"
}
pids=()
for i in $(seq 0 $((n - 1))); do
  JOB_COMPLETION_INDEX=$i INJECTORS=$n SIMULATION=$simulation START_AT=$start_at OUT=$injectors \
    CLASSPATH_FILE=$out/classpath JAVA_OPTS=-Xmx1g \
    timeout "$LIMIT" $CLIENT_PIN deploy/kubernetes/injector.sh "-Dinjector=$i/$n" "-DstartAt=$start_at" \
    "$ONLY_GIVEN_TARGETS" "${targets[@]}" "$@" >"$injectors/injector-$i.log" 2>&1 &
  pids+=($!)
done
failed=0 lost=
for i in "${!pids[@]}"; do
  rc=0
  wait "${pids[$i]}" || rc=$?
  if [ "$rc" -ne 0 ]; then echo "injectors: injector $i failed, see $injectors/injector-$i.log" >&2; failed=1; fi
  grep -h "^couchbench: injector $i/$n: load starts" "$injectors/injector-$i.log" || true
  # Why an injector left no results, for Merge: timeout's 124 is the limit reached.
  if [ ! -f "$(run_folder "$i")/results.json" ]; then
    case $rc in
      0) why="no results" ;;
      124) why="did not end in $LIMIT s" ;;
      *) why="ended with exit code $rc" ;;
    esac
    lost=${lost:+$lost;}$i=$why
  fi
done
# Every run folder, those without results.json too: Merge leaves them out with a line, and finds their key files.
runs=$(for i in $(seq 0 $((n - 1))); do run_folder "$i"; done | paste -sd, -)
merge_start=$(date +%s.%N)
merged_rc=0
java -cp "$classpath" couchbench.merge.MergeCommand "$runs" "$merged" "$lost" || merged_rc=$? # lastRun.txt names it
[ "$merged_rc" -eq 0 ] || [ "$merged_rc" -eq 3 ] || exit "$merged_rc" # 3: merged, some injectors lost
echo "injectors: Merge took $(echo "$(date +%s.%N) - $merge_start" | bc) s with its JVM's start ($(du -sh \
  "$injectors" | cut -f1) of injector folders, $(du -ch "$injectors"/injector-*/reports/*/histograms.hlog | tail -1 \
  | cut -f1) of histogram logs, $(cat "$injectors"/injector-*/data/keys/*.csv 2>/dev/null | wc -l) key file lines)"

# Each measured entry's rate and count, per injector and merged, from the results.json files.
rates() {
  jq -r --arg who "$1" '.requests[] | select(.warmUp | not) | select(.count > 0)
    | "\($who): \(.name): \(.count) requests, \(.ratePerSecond)/s, p50 \(.latency.p50) us, p99 \(.latency.p99) us"' "$2"
}
for i in $(seq 0 $((n - 1))); do
  folder=$(run_folder "$i") && [ -f "$folder/results.json" ] || continue
  rates "injector $(jq -r .run.injector "$folder/results.json")" "$folder/results.json"
done
rates merged "$merged/results.json"
jq -r '.serverCounts[] | if .notCounted then "merged: \(.counter) n/a (\(.notCounted))"
  else "merged: \(.counter) +\(.after - .before) on the server, \(.acknowledged) acknowledged" end' "$merged/results.json"
echo "injectors: merged summary $merged/summary.html"
[ "$merged_rc" -eq 0 ] || exit "$merged_rc"
exit "$failed"
