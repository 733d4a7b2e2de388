#!/usr/bin/env bash
# Benchmark, not a test: issue 62's couch_peruser against databases made by couchbench. One fresh Apache CouchDB 3.5
# node (../shared/couchdb/, QuickJS, on a free loopback port), then ROUNDS rounds, each a Tenants run with
# -Ddatabases=own and one with -Ddatabases=peruser (TENANTS users, basic auth at -Diterations=ITERATIONS, DURATION s),
# the order swapped every other round. Each run prints one line: the node's Erlang processes and memory before the
# users were made, at the load's start, at the peak and at the end (figures.erlang), and the reads a second.
#
#   bench/tenants-peruser.sh                                   # about 3 minutes
#   ROUNDS=3 TENANTS=500 DURATION=20 bench/tenants-peruser.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-2}
TENANTS=${TENANTS:-200}
DURATION=${DURATION:-20}
ITERATIONS=${ITERATIONS:-1000}
LIMIT=${LIMIT:-600}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out tenants-peruser
bench_classpath

bench_start_couchdb "$out/node" peruser
trap 'bench_stop_couchdb "$out/node"' EXIT
for round in $(seq "$ROUNDS"); do
  order="own peruser"
  [ $((round % 2)) -eq 0 ] && order="peruser own"
  for databases in $order; do
    # The password from the environment, out of ps.
    folder=$(COUCHDB_PASSWORD=$COUCH_PASSWORD bench_gatling Tenants "$out/run-$round-$databases.log" \
      -Dcouchdb.url="$URL" -Dcouchdb.user=admin -Dtenants="$TENANTS" -Diterations="$ITERATIONS" \
      -Dduration="$DURATION" -Ddatabases="$databases" -Ddatabase="bench_peruser_${round}_$databases")
    [ -n "$folder" ] || { echo "no summary for round $round -Ddatabases=$databases; see $out/run-$round-$databases.log" >&2; exit 1; }
    python3 - "$round" "$databases" "$DURATION" "$folder" <<'PY'
import json, sys
round_, databases, duration, folder = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
run = json.load(open(folder + "/results.json"))
erlang = run["figures"]["erlang"]
def line(gauges, unit):
    return "; ".join(f"before users {g['beforeUsers']:,.0f}, start {g['start']:,.0f}, peak {g['peak']:,.0f}, end"
                     f" {g['end']:,.0f} {unit}" for g in gauges)
reads = sum(e["ok"] for e in run["requests"] if e["name"] == "basic read")
print(f"round {round_} -Ddatabases={databases}: processes {line(erlang['processes'], '')}; memory"
      f" {line(erlang['memory'], 'MB')}; basic read {reads / duration:,.0f}/s; let in {run['figures']['letInCount']},"
      f" failed {run['figures']['failedCount']}")
PY
  done
done
