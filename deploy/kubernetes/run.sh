#!/bin/bash
# deploy/kubernetes/run.sh N SIMULATION [-Dname=value...]: one couchbench run from N injectors on the current
# kubectl context, merged into one result. It fills job.yaml in (N, the simulation, the properties, a start instant
# START_DELAY seconds ahead, 120 by default, for every pod to be scheduled, pulled and ready), applies it, waits for
# each pod's run to end, copies its folder out (kubectl cp) into COLLECT (default collected-<job>), lets the pod end,
# waits for the Job to complete, and runs Merge on the injectors' run folders into COLLECT/merged. An injector whose run
# did not end within WAIT_LIMIT seconds of the apply (its pod evicted, its node lost, its run stuck) or ended without
# results loses nothing of the others': they are merged, what it had flushed is copied when its pod is still there, and
# the merged results, the last line and the exit status (3) say "3 of 4 injectors; injector 2/4: why".
#
# run.sh --render N SIMULATION [-Dname=value...] prints the Job it would apply, and does nothing else.
#
# Needs: kubectl with rights to create Jobs and to exec into and copy from their pods, the image
# couchbench-injector:latest where the cluster can pull it (IMAGE= names another), the Secret couchbench-couchdb
# (key password) for a CouchDB login, and Maven with this project here, offline, for Merge.
set -euo pipefail
render_only=
if [ "${1:-}" = --render ]; then
  render_only=1
  shift
fi
if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 N SIMULATION [-Dname=value...]   e.g. $0 4 MemSet -Dmemcache.servers=cache1:21201 -Dusers=200" >&2
  exit 1
fi
n=$1 simulation=$2
shift 2
for property in "$@"; do
  case $property in
    -D*=*) ;;
    *) echo "$property is not a -Dname=value property" >&2; exit 1 ;;
  esac
  case ${property,,} in
    *password*) echo "$property: no password on the command line; put it in the Secret couchbench-couchdb" >&2; exit 1 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
job=couchbench-$(echo "$simulation" | tr '[:upper:]' '[:lower:]')-$(date -u +%Y%m%d%H%M%S)
start_at=$(date -u -d "+${START_DELAY:-120} seconds" +%Y-%m-%dT%H:%M:%SZ)
collect=${COLLECT:-collected-$job}
wait_limit=${WAIT_LIMIT:-7200} # seconds from the apply for every pod's run to end

# job.yaml with this run's values: the name, N (completions, parallelism, INJECTORS), the simulation, the start, the
# image and the properties in place of the example ones.
render() {
  awk -v job="$job" -v n="$n" -v sim="$simulation" -v at="$start_at" -v image="${IMAGE:-couchbench-injector:latest}" \
      -v props="$(printf '%s\n' "$@")" '
    /^  name: couchbench-injectors$/ { print "  name: " job; next }
    /^  completions: / { print "  completions: " n; next }
    /^  parallelism: / { print "  parallelism: " n; next }
    /^          image: / { print "          image: " image; next }
    /# The run.s properties, one per line/ {
      print; skipping = 1
      count = split(props, list, "\n")
      for (i = 1; i <= count; i++) if (list[i] != "") { gsub(/"/, "\\\"", list[i]); print "            - \"" list[i] "\"" }
      next
    }
    skipping && /^          env:/ { skipping = 0 }
    skipping { next }
    value_of != "" { sub(/value: .*/, "value: \"" value_of "\""); print; value_of = ""; next }
    /- name: INJECTORS$/ { value_of = n }
    /- name: SIMULATION$/ { value_of = sim }
    /- name: START_AT$/ { value_of = at }
    { print }
  ' "$here/job.yaml"
}

if [ -n "$render_only" ]; then
  render "$@"
  exit 0
fi
render "$@" | kubectl apply -f -
echo "run.sh: Job $job applied: $n injectors of $simulation, load at $start_at; results into $collect"
mkdir -p "$collect"
deadline=$(($(date +%s) + wait_limit))
lost= runs=
for i in $(seq 0 $((n - 1))); do
  pod= ended= named=
  while [ "$(date +%s)" -lt "$deadline" ]; do
    pod=$(kubectl get pods -l "job-name=$job,batch.kubernetes.io/job-completion-index=$i" -o name | head -1)
    [ -n "$pod" ] && kubectl exec "$pod" -- test -f "/out/injector-$i/DONE" 2>/dev/null && { ended=1; break; }
    sleep 1
  done
  if [ -n "$ended" ] && kubectl cp "${pod#pod/}:/out/injector-$i" "$collect/injector-$i"; then
    kubectl exec "$pod" -- touch /out/collected || true
    why="ended with exit code $(cat "$collect/injector-$i/DONE")"
    echo "run.sh: injector $i $why; its folder is $collect/injector-$i"
  else
    why="did not end in $wait_limit s"
    [ -n "$pod" ] || why="$why (no pod left: evicted, or its node lost)"
    echo "run.sh: injector $i $why: the others are merged without it" >&2
    # What it wrote so far, when its pod is still there: Merge reads its flushed key file as far as it goes.
    [ -z "$pod" ] || kubectl cp "${pod#pod/}:/out/injector-$i" "$collect/injector-$i" 2>/dev/null || true
  fi
  # The injector's run folder, as its run named it in reports/lastRun.txt when its load started.
  named=$(cat "$collect/injector-$i/reports/lastRun.txt" 2>/dev/null) && [ -n "$named" ] &&
    runs=${runs:+$runs,}$(realpath "$collect/injector-$i/reports/$named")
  [ -n "$named" ] && [ -f "$collect/injector-$i/reports/$named/results.json" ] || lost=${lost:+$lost;}$i=$why
done
kubectl wait --for=condition=complete "job/$job" --timeout=300s || echo "run.sh: Job $job did not complete (an injector failed or was lost): merging what was collected" >&2
# Every run folder collected (above), those without results.json too: Merge leaves them out with a line, and finds
# their key files.
[ -n "$runs" ] || { echo "run.sh: no injector's folder was collected: nothing to merge" >&2; exit 1; }
mvn -q -o -f "$here/../../pom.xml" exec:java@merge -Druns="$runs" -Dout="$(realpath -m "$collect/merged")" -Dlost="$lost"
