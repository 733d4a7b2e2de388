#!/usr/bin/env bash
# Benchmark, not a test: BulkInsert's CPU per request by thread group (Gatling's event loops "gatling-1-N",
# its actor pool "pool-1-thread-N", the JIT, GC) beside the minimal Python client's (bench/bulk_baseline.py,
# the same bodies of B empty documents, T connections), each over a 10 s window in the steady part of one long
# step, with the requests counted by the server (its documents, over B) over the same window. Rounds are
# interleaved and their order alternates. BulkInsert runs as `mvn gatling:test` runs it (no perf data, C1
# only, at a tenth of the JVM's compile thresholds: the pom's flags and profile). PROFILE=1: after the
# rounds, one more BulkInsert run per B and T under async-profiler over the same window, written as flame
# graphs (profile-*.html) and collapsed stacks; these runs are not in the figures.
#
#   bench/bulk-cpu-by-thread.sh
#   ROUNDS=3 BATCHES="1 64 1024" THREADS="1 2" bench/bulk-cpu-by-thread.sh
#   PROFILE=1 ROUNDS=0 BATCHES=64 THREADS=1 bench/bulk-cpu-by-thread.sh   # a flame graph only
#   BASELINE_FLAGS=-Dgatling.netty.useIoUring=false bench/bulk-cpu-by-thread.sh   # BulkInsert with other JVM flags too
#   BASELINE=/tmp/before bench/bulk-cpu-by-thread.sh   # and BulkInsert of another checkout (built: mvn test-compile)
#   COUCHDB=1 bench/bulk-cpu-by-thread.sh   # a fresh Apache CouchDB 3.5 node (../shared/couchdb/), not pouchdb-server:
#                                           # the servers' sampler reads its _stats and _system each second
#
# About 45 s per run: 12 runs a round with the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-2}
BATCHES=${BATCHES:-"1 64 1024"}
THREADS=${THREADS:-"1 2"}
PROFILE=${PROFILE:-0}
PROFILE_EVENT=${PROFILE_EVENT:-cpu}
# BASELINE=DIR, or BASELINE_FLAGS if set (even empty): a client "baseline" too, BulkInsert of that checkout, with these
# flags instead of JVM_FLAGS's
BASELINE=${BASELINE:-}
COUCHDB=${COUCHDB:-0}
export COUCHDB_USER= COUCHDB_PASSWORD=
# shellcheck source=bench/lib.sh
. bench/lib.sh
LOADGEN_FLAGS=$(bench_loadgen_flags BulkInsert)
JVM_FLAGS="$LOADGEN_FLAGS ${JVM_FLAGS:-}"
if [ "$COUCHDB" = 1 ]; then
  out=$(mktemp -d /tmp/bulk-cpu-by-thread.XXXXXX)
  bench_start_couchdb "$out/node" bulkcpu
  trap 'bench_stop_couchdb "$out/node"' EXIT
  # couchbench reads the login from the environment; curl from its config file, out of ps.
  COUCHDB_USER=admin COUCHDB_PASSWORD=$COUCH_PASSWORD
  printf 'user = "admin:%s"\n' "$COUCH_PASSWORD" >"$out/curl.config"
else
  bench_start_pouchdb bulk-cpu-by-thread
  : >"$out/curl.config"
fi
bench_classpath

# curl with the login, if any.
couch() {
  curl -s -K "$out/curl.config" "$@"
}

# Each database's documents, "name count" a line: the requests of a window are the documents added to the
# databases that were there at both ends, over B (a window ends by deleting every database).
server_docs() {
  couch "$URL/_all_dbs" | tr -d '[]"' | tr ',' '\n' | grep . | while read -r db; do
    echo "$db $(couch "$URL/$db" | sed -n 's/.*"doc_count":\([0-9]*\).*/\1/p')"
  done
}

# window PID NAME LEAD PATTERN B: CPU of PID's threads (found by PATTERN among its children) and the server's
# requests (documents over B) over 10 s, LEAD seconds after PID started; then PID is stopped.
window() {
  local pid=$1 name=$2 before after proc docs
  sleep "$3"
  proc=$(pgrep -P "$pid" -f "$4" | head -1 || true)
  proc=${proc:-$pid}
  docs=$(server_docs)
  before=$(bench_threads "$proc")
  sleep 10
  after=$(bench_threads "$proc")
  docs=$(awk -v b="$5" 'FNR == 1 { file++ } file == 1 { n[$1] = $2; next } $1 in n { added += $2 - n[$1] }
    END { print "requests - " int(added / b) " 0 0" }' <(echo "$docs") <(server_docs))
  kill "$proc" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  # Every database goes: a killed client leaves its own, and the next windows count only the next client's.
  couch "$URL/_all_dbs" | tr -d '[]"' | tr ',' '\n' | grep . | while read -r db; do
    couch -o /dev/null -X DELETE "$URL/$db"
  done
  bench_per_request "$name" 10 "$before
requests - 0 0 0" "$after
$docs"
}

bulkinsert() { # NAME B T [main class]: one 30 s step, its window 18 s after the JVM's start (its warm-up done)
  local main=${4:-io.gatling.app.Gatling} flags=$JVM_FLAGS path=$classpath
  if [ "$1" != "${1#baseline}" ]; then
    [ -n "${BASELINE_FLAGS+set}" ] && flags="$LOADGEN_FLAGS $BASELINE_FLAGS"
    [ -n "$BASELINE" ] && path="$BASELINE/target/classes:$BASELINE/target/test-classes:${classpath#target/classes:target/test-classes:}"
  fi
  # shellcheck disable=SC2086 # the flags are words
  timeout "$LIMIT" $CLIENT_PIN java $flags --add-opens=java.base/java.lang=ALL-UNNAMED \
    --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED -Xmx1G -cp "$path" "$ONLY_GIVEN_TARGETS" \
    -Dcouchdb.url="$URL" ${COUCHDB_USER:+-Dcouchdb.user="$COUCHDB_USER"} -DbatchSizes="$2" -Dthreads="$3" -Ddocs="$(($2 * $3))" -DstepSeconds=30 -Dsingle=false \
    -Dcouchbench.reports="$out/reports" -Dprofile.from=18 -Dprofile.seconds=10 -Dprofile.out="$out/profile-b$2-t$3" \
    -Dprofile.event="$PROFILE_EVENT" "$main" --simulation BulkInsert --results-folder "$out/reports" \
    >"$out/$1-b$2-t$3.log" 2>&1 &
  window $! "$1 B=$2,T=$3" 18 "$main" "$2"
}

python_client() { # NAME B T: enough documents for more than the window, its window 4 s after its start
  timeout "$LIMIT" $CLIENT_PIN python3 bench/bulk_baseline.py "$URL" "$2" "$3" $(($2 * 20000)) >"$out/$1-b$2-t$3.log" 2>&1 &
  window $! "$1 B=$2,T=$3" 4 bulk_baseline "$2"
}

clients="BulkInsert python"
[ -n "$BASELINE" ] || [ -n "${BASELINE_FLAGS+set}" ] && clients="baseline $clients"
for round in $(seq "$ROUNDS"); do
  order=$clients
  [ $((round % 2)) -eq 0 ] && order=$(echo "$clients" | tr ' ' '\n' | tac | tr '\n' ' ')
  for b in $BATCHES; do
    for t in $THREADS; do
      for client in $order; do
        if [ "$client" = python ]; then python_client "python-$round" "$b" "$t"; else bulkinsert "$client-$round" "$b" "$t"; fi
      done
    done
  done
  echo "round $round of $ROUNDS done" >&2
done | tee "$out/rounds.txt"
echo "medians over the rounds (requests/s: the server's documents over B; us CPU: the client's):"
MINIMAL_CLIENT=python bench_medians "$out/rounds.txt"
if [ "$PROFILE" = 1 ]; then
  for b in $BATCHES; do for t in $THREADS; do bulkinsert profiled "$b" "$t" couchbench.ProfiledGatling >/dev/null; done; done
  for profile in "$out"/profile-*.collapsed; do awk -f bench/profile-summary.awk "$profile" >"${profile%.collapsed}.txt"; done
  echo "their sums (bench/profile-summary.awk): $(ls "$out"/profile-*.txt | tr '\n' ' ')"
  echo "flame graphs (not in the figures above): $(ls "$out"/profile-*.html | tr '\n' ' ')"
fi
