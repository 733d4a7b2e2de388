#!/usr/bin/env bash
# Benchmark, not a test: issue 45's figures by -Djobs. Two fresh Apache CouchDB 3.5 nodes (../shared/couchdb/, or
# COUCHDB_HOME naming an unpacked release) on free loopback ports, the source's replicating to the target's. For each
# count of JOBS: one-shot replications of DOCS documents each (time and documents a second, each and over all), then
# continuous ones of DOCS documents each with WRITES writes into each source at RATE a second over all (first copy,
# lag, time to converge after the last write). Lines start with "oneshot N:" and "continuous N:"; docs/replication.md
# quotes them.
#
#   bench/replicate-jobs.sh                      # about 5 minutes
#   JOBS="1 2" DOCS=5000 bench/replicate-jobs.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS=${JOBS:-1 2 4}
DOCS=${DOCS:-20000}
WRITES=${WRITES:-1000}
RATE=${RATE:-100}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out replicate-jobs
bench_classpath
bench_start_couchdb "$out/target" target
target=$couch
TARGET_URL=$URL
bench_start_couchdb "$out/source" source
trap 'kill "$target" 2>/dev/null; bench_stop_couchdb "$out/source"; rm -rf "$out/target/data"' EXIT

for n in $JOBS; do
  for mode in oneshot continuous; do
    extra=()
    [ "$mode" = continuous ] && extra=(-Dwrites="$WRITES" -Drate="$RATE")
    LIMIT=1200 bench_gatling Replicate "$out/$mode-$n.log" -Dcouchdb.url="$URL" -Dcouchdb.user=admin \
      -Dcouchdb.password="$COUCH_PASSWORD" -Dcouchdb.target="$TARGET_URL" -Dmode="$mode" -Djobs="$n" \
      -Ddocs="$DOCS" -Ddatabase="bench_${mode}_$n" "${extra[@]}" >"$out/folder-$mode-$n"
    folder=$(cat "$out/folder-$mode-$n")
    [ -n "$folder" ] || { echo "no summary for $mode $n; see $out/$mode-$n.log" >&2; exit 1; }
    python3 - "$mode" "$n" "$folder/results.json" <<'PY'
import json, sys
mode, n, results = sys.argv[1:4]
figures = json.load(open(results))["figures"]
same = all(c["sourceDigest"] == c["targetDigest"] for c in figures["comparisons"])
if mode == "oneshot":
    shots = figures["oneShots"]
    longest = max(s["seconds"] for s in shots)
    written = sum(s["docsWritten"] for s in shots)
    each = ", ".join(f"{s['seconds']:.2f} s ({s['docsWritten'] / s['seconds']:,.0f}/s)" for s in shots)
    print(f"oneshot {n}: each {each}; all {written:,} documents in {longest:.2f} s, {written / longest:,.0f}/s;"
          f" targets equal to sources: {same}")
else:
    watched = figures["watched"]
    print(f"continuous {n}: first copy done at {max(w['copySeconds'] for w in watched):.2f} s; converged"
          f" {max(w['convergeSeconds'] for w in watched):.2f} s after the last write; missing"
          f" {sum(w['missing'] for w in watched)}; targets equal to sources: {same}")
PY
    if [ "$mode" = continuous ]; then
      (cd "$folder" && python3 -c "
import csv
for row in csv.reader(open('replication-lag-of-the-writes.csv')):
    if row[0].startswith('write'): print('continuous $n: lag of ' + row[1] + ' writes: p50 ' + row[2] + ' ms, p95 ' + row[3] + ' ms, p99 ' + row[4] + ' ms, max ' + row[6] + ' ms')
")
    fi
  done
done
echo "replicate-jobs: results in $out"
