#!/usr/bin/env bash
# Benchmark, not a test: what each of the server sampler's reads costs a loaded CouchDB. BulkInsert against a fresh
# Apache CouchDB 3.5 node (../shared/couchdb/) with the sampler as it is, with one of its reads left out at a time
# (-DsampleServers.statsEvery=0: no GET _node/_local/_stats/couchdb; systemEvery=0: no _system; processEvery=0: no
# /proc figures of the server's process), and with no sampling (-DsampleServers=false). Rounds are interleaved and
# their order alternates; prints per variant the medians (ranges) of docs/s and of the server's CPU per request
# (beam.smp's utime + stime over the step, as BulkInsert's cpu-by-step.csv gives it), and docs/s over the unsampled
# run's of the same round. See docs/benchmarks.md.
#
#   bench/sampler-reads.sh
#   ROUNDS=3 WARMUP=1 STEPS=64:32768 THREADS=1,2 bench/sampler-reads.sh
#   VARIANTS="sampled:-DsampleServers=true off:-DsampleServers=false" bench/sampler-reads.sh   # any -D options,
#                                                # name:flags, flags comma-separated
#
# About 20 s a run with the defaults: 5 variants, 3 rounds and a warm-up round, some 7 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
WARMUP=${WARMUP:-1} # rounds first, counted nowhere: a fresh node's first writes are not its steady ones
THREADS=${THREADS:-1,2}
STEPS=${STEPS:-64:32768} # B:N, N documents a step
VARIANTS=${VARIANTS:-"sampled:-DsampleServers=true no-stats:-DsampleServers.statsEvery=0
  no-system:-DsampleServers.systemEvery=0 no-process:-DsampleServers.processEvery=0 off:-DsampleServers=false"}
export COUCHDB_USER= COUCHDB_PASSWORD=
# shellcheck source=bench/lib.sh
. bench/lib.sh

out=$(mktemp -d /tmp/sampler-reads.XXXXXX)
bench_start_couchdb "$out/node" samplerreads
trap 'bench_stop_couchdb "$out/node"' EXIT
echo "CouchDB 3.5 on $URL, pid $couch; build $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo +changes)"
mkdir "$out/reports"
bench_classpath

results=$out/results.csv
echo "round,variant,B,T,docs/s,server cpu s,requests" >"$results"

run() { # round variant flags B N
  local log=$out/$2-$1-b$4.log report flags
  IFS=, read -ra flags <<<"$3"
  # As `mvn gatling:test` runs it (the pom's flags for BulkInsert), without Maven's 30 s of start-up a run.
  report=$(COUCHDB_PASSWORD=$COUCH_PASSWORD bench_gatling BulkInsert "$log" -DbatchSizes="$4" -Dthreads="$THREADS" \
    -Ddocs="$5" -Dsingle=false -Dcouchdb.url="$URL" -Dcouchdb.user=admin "${flags[@]}")
  [ -n "$report" ] || { tail -20 "$log" >&2; echo "no summary in $log" >&2; exit 1; }
  [ "$1" -gt 0 ] || return 0
  awk -F, -v r="$1" -v v="$2" -v b="$4" -v n="$5" 'FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; next }
    file == 1 { rate[$col[1, "B"], $col[1, "T"]] = $col[1, "docs/s"]; next }
    { t = $col[2, "T"]; print r "," v "," $col[2, "B"] "," t "," rate[$col[2, "B"], t] "," $col[2, "server CPU (s)"] "," \
        int((n + b * t - 1) / (b * t)) * t }' \
    "$report/docs-per-second-by-step.csv" "$report/cpu-by-step.csv" >>"$results"
}

started=$SECONDS
read -ra variants <<<"$(echo $VARIANTS)"
for round in $(seq $((1 - WARMUP)) "$ROUNDS"); do
  if [ $((round % 2)) -eq 1 ]; then order=("${variants[@]}"); else order=(); for v in "${variants[@]}"; do order=("$v" "${order[@]}"); done; fi
  for step in $STEPS; do
    for variant in "${order[@]}"; do
      if [ "$round" -le 0 ]; then echo "warm-up round, ${variant%%:*}, counted nowhere"
      else echo "round $round/$ROUNDS, ${variant%%:*}, B=${step%%:*} ($((SECONDS - started)) s so far)"; fi
      run "$round" "${variant%%:*}" "${variant#*:}" "${step%%:*}" "${step##*:}"
    done
  done
done

echo
echo "medians of $ROUNDS rounds (ranges): docs/s, its ratio to the unsampled run's ('off') of the same round, and the"
echo "server's CPU per request in ms"
awk -F, -v variants="$(for v in "${variants[@]}"; do printf '%s ' "${v%%:*}"; done)" -f bench/stats.awk -f /dev/stdin \
  "$results" <<'AWK'
  NR > 1 { key = $3 "," $4; rate[$2, key] = rate[$2, key] " " $5; byRound[$1, $2, key] = $5; rounds[$1] = 1
           srv[$2, key] = srv[$2, key] " " 1000 * $6 / $7; if (!(key in seen)) { seen[key] = 1; keys[++k] = key } }
  END {
    n = split(variants, v, " ")
    printf "%5s %3s %-12s %9s %13s %10s %16s\n", "B", "T", "variant", "docs/s", "range", "/ off", "server ms/req"
    for (i = 1; i <= k; i++) for (j = 1; j <= n; j++) {
      key = keys[i]; split(key, bt, ","); ratios = ""
      for (r in rounds) if (byRound[r, "off", key] > 0 && byRound[r, v[j], key] != "") ratios = ratios " " byRound[r, v[j], key] / byRound[r, "off", key]
      printf "%5d %3d %-12s %9.0f %13s %5.2f %s %7.2f (%s)\n", bt[1], bt[2], v[j], median(rate[v[j], key]), spread(rate[v[j], key]),
        ratios == "" ? 0 : median(ratios), ratios == "" ? "n/a" : spread(ratios), median(srv[v[j], key]), spread(srv[v[j], key])
    }
  }
AWK
echo
echo "every round's figures: $results ($((SECONDS - started)) s in all)"
