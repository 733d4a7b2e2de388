#!/usr/bin/env bash
# Benchmark, not a test: issue 46's curve. A fresh Apache CouchDB 3.5 node (../shared/couchdb/, or COUCHDB_HOME
# naming an unpacked release) and a memcached, both on free loopback ports, and one Workload run over both systems:
# YCSB's WORKLOAD at -Dtargets=TARGETS (default auto: a search for the highest rate meeting SLA), each step SETTLE s
# settling and STEP s measured, THREADS threads. It prints each step's line and each system's highest rate, and
# copies the page's curve (latency-against-throughput.png and .csv) and the staircase's table to $out;
# docs/workloads.md quotes them.
#
#   bench/curve.sh                                   # about 8 minutes: workload a, the highest rate meeting p99 < 50 ms
#   TARGETS=500,1000,2000,4000 WORKLOAD=c bench/curve.sh
set -euo pipefail
cd "$(dirname "$0")/.."

WORKLOAD=${WORKLOAD:-a}
TARGETS=${TARGETS:-auto}
SLA=${SLA:-p99<50ms}
THREADS=${THREADS:-32}
SETTLE=${SETTLE:-3}
STEP=${STEP:-10}
START_RATE=${START_RATE:-250}
MAX_STEPS=${MAX_STEPS:-12}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_start_memcached curve
bench_classpath
bench_start_couchdb "$out/node" curve
trap 'bench_stop_couchdb "$out/node"; kill "$server" 2>/dev/null || true' EXIT

LIMIT=1800 bench_gatling Workload "$out/run.log" -Dcouchdb.url="$URL" -Dcouchdb.user=admin \
  -Dcouchdb.password="$COUCH_PASSWORD" -Dmemcache.servers="$SERVER" -Dworkload="$WORKLOAD" -Dthreads="$THREADS" \
  -Dtargets="$TARGETS" -Dsla="$SLA" -DstartRate="$START_RATE" -DmaxSteps="$MAX_STEPS" -DsettleSeconds="$SETTLE" \
  -DstepSeconds="$STEP" -Ddatabase=bench_curve >"$out/folder"
folder=$(cat "$out/folder")
[ -n "$folder" ] || { tail -20 "$out/run.log" >&2; exit 1; }
grep "couchbench: curve:" "$out/run.log"
sed -n 's/.*<p>\([a-z]*: [0-9,]* operations\/s is the highest rate asked that was met[^<]*\)<.*/\1/p' \
  "$folder/summary.html"
cp "$folder/latency-against-throughput.png" "$folder/latency-against-throughput.csv" \
  "$folder/the-staircase-step-by-step.csv" "$out/"
column -s, -t "$out/the-staircase-step-by-step.csv"
echo "curve: results in $out (run folder $folder)"
