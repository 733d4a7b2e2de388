#!/usr/bin/env bash
# Benchmark, not a test: issue 61's long run judged by its trend. A fresh Apache CouchDB 3.5 node (../shared/couchdb/);
# CouchSet writes KEYS_SECONDS seconds of documents, then CouchGet reads them for DURATION seconds (an hour) at a
# steady RATE a second on each of USERS connections (memtier's --rate-limiting), with -Dtrend judging the node's
# resident memory, Erlang memory, processes, open databases and files, message queues, the client's heap after GC
# and the gets' p99 minute by minute. Prints the run's trend lines and whether a series rose beyond its threshold; the
# page is in the run folder it names.
#
#   bench/trend-couchget.sh                      # about 62 min
#   DURATION=120 bench/trend-couchget.sh         # the check: about 3 min
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-3600}
USERS=${USERS:-2}
RATE=${RATE:-50}
KEYS_SECONDS=${KEYS_SECONDS:-20}
TREND=${TREND:-rss:+5%/h,erlang:+5%/h,processes:+5%/h,databases:+5%/h,files:+5%/h,queued:+50%/h,heap:+5%/h,p99:+10%/h}
# shellcheck source=bench/lib.sh
. bench/lib.sh
out=$(mktemp -d /tmp/trend-couchget.XXXXXX)
bench_start_couchdb "$out/node" trendcouchget
trap 'bench_stop_couchdb "$out/node"' EXIT
echo "trend-couchget: CouchDB 3.5 at $URL; CouchSet $KEYS_SECONDS s, then CouchGet $DURATION s at $RATE/s on each of $USERS connections; -Dtrend=$TREND; logs in $out"
run() { # SIMULATION LOG [-D options]
  bench_couch_run $((DURATION + 1800)) "$@" -Dusers="$USERS" -DkeyFile="$out/keys.csv"
}
run CouchSet "$out/couchset.log" -Dduration="$KEYS_SECONDS" || { tail -20 "$out/couchset.log" >&2; exit 1; }
code=0
run CouchGet "$out/couchget.log" -Dduration="$DURATION" -DratePerConnection="$RATE" -Dtrend="$TREND" || code=$?
grep -E '^couchbench: (trend|summary|WARNING)' "$out/couchget.log" || true
# Maven ends every code but 0 as its own 1 ("Gatling failed. ForkException"): the run's lines say which it was.
echo "trend-couchget: CouchGet's mvn ended with exit code $code$(grep -q '^couchbench: trend: .*: rises$' \
  "$out/couchget.log" && echo ': a series rose beyond its threshold (the run'"'"'s own code 7)')"
