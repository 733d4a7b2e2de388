#!/usr/bin/env bash
# Benchmark, not a test: BulkInsert's docs/s against a minimal client's (BulkBaseline, the JDK's
# HttpClient and a bare socket) sending the same _bulk_docs bodies with the same concurrency, to one
# pouchdb-server on 127.0.0.1. Rounds are interleaved, and their order alternates, so that noise
# from a shared machine falls on every client alike; prints medians and ratios. See docs/benchmarks.md.
#
#   bench/bulk-baseline.sh
#   ROUNDS=5 THREADS=1,2 STEPS="1:4096 64:16384 1024:32768" PORT=5985 bench/bulk-baseline.sh
#
# About 6 minutes with the defaults on 2 cores, 10 with ROUNDS=5.
# STEPS is a list of B:N, N documents per step at batch size B: one N for all B would make the B=1
# steps last minutes or the B=1024 steps a fraction of a second.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-1,2}
STEPS=${STEPS:-"1:4096 64:16384 1024:32768"}
PORT=${PORT:-} # empty: a free one
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_start_pouchdb bulk-baseline "$PORT"
bench_classpath

results=$out/results.csv # round,client,B,T,docs/s
echo "round,client,B,T,docs/s" >"$results"

bulkinsert() { # round B N
  local log=$out/bulkinsert-$1-b$2.log report attempt
  for attempt in 1 2 3; do
    timeout "$LIMIT" mvn -q -B gatling:test -Dsimulation=BulkInsert -DbatchSizes="$2" \
      -Dthreads="$THREADS" -Ddocs="$3" -Dsingle=false -Dcouchdb.url="$URL" "$ONLY_GIVEN_TARGETS" >"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
    # The run folder named in this run's own output: other runs may be writing to reports/ meanwhile.
    report=$(sed -n 's|^couchbench: summary: \(.*\)/summary.html$|\1|p' "$log" | tail -1)
    [ -n "$report" ] && break
    # Now and then BulkInsert's summary misses its own run folder and writes no figures: the folder's
    # timestamp comes from Gatling's clock, which can lag Instant.now() by a millisecond.
    echo "  no summary written: $(grep -m1 'summary' "$log" || true); running again" >&2
    cp "$log" "$log.$attempt"
  done
  [ -n "$report" ] || { echo "BulkInsert wrote no summary three times; see $log" >&2; exit 1; }
  # Columns by name: the summary's table may gain columns.
  awk -F, -v r="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { print r ",BulkInsert," $col["B"] "," $col["T"] "," $col["docs/s"] }' "$report/docs-per-second-by-step.csv" >>"$results"
}

baseline() { # round B N client
  timeout "$LIMIT" java -cp "$classpath" couchbench.bulkinsert.BulkBaseline "$URL" "$2" "$THREADS" "$3" "$4" \
    | awk -F, -v r="$1" -v c="$4" 'NR > 1 { print r "," c "," $1 "," $2 "," $5 }' >>"$results"
}

started=$SECONDS
for round in $(seq "$ROUNDS"); do
  for step in $STEPS; do
    b=${step%%:*}
    n=${step##*:}
    echo "round $round/$ROUNDS, B=$b, $n docs per step ($((SECONDS - started)) s so far)"
    # Alternate the order, so that neither side always runs first on a warming or cooling machine.
    if [ $((round % 2)) -eq 1 ]; then
      bulkinsert "$round" "$b" "$n"; baseline "$round" "$b" "$n" jdk; baseline "$round" "$b" "$n" socket
    else
      baseline "$round" "$b" "$n" socket; baseline "$round" "$b" "$n" jdk; bulkinsert "$round" "$b" "$n"
    fi
  done
done

echo
echo "docs/s: median of $ROUNDS rounds. Ratio: BulkInsert / baseline, the median of the rounds' own ratios"
echo "(each round's clients ran back to back), and their range."
awk -F, -f bench/stats.awk -f /dev/stdin "$results" <<'AWK'
  NR > 1 { key = $3 "," $4; rate[$2, key] = rate[$2, key] " " $5; byRound[$1, $2, key] = $5
           if (!(key in seen)) { seen[key] = 1; keys[++k] = key }; rounds[$1] = 1 }
  END {
    printf "%6s %3s %11s %11s %11s %7s %10s %10s %10s\n", "B", "T", "BulkInsert", "jdk", "socket",
      "BI/jdk", "range", "BI/socket", "range"
    for (i = 1; i <= k; i++) {
      key = keys[i]; split(key, bt, ","); rj = ""; rs = ""
      for (r in rounds) {
        rj = rj " " byRound[r, "BulkInsert", key] / byRound[r, "jdk", key]
        rs = rs " " byRound[r, "BulkInsert", key] / byRound[r, "socket", key]
      }
      printf "%6d %3d %11.0f %11.0f %11.0f %7.2f %10s %10.2f %10s\n", bt[1], bt[2], median(rate["BulkInsert", key]),
        median(rate["jdk", key]), median(rate["socket", key]), median(rj), spread(rj), median(rs), spread(rs)
    }
  }
AWK
echo
echo "every round's figures: $results ($((SECONDS - started)) s in all)"
