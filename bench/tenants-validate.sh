#!/usr/bin/env bash
# Benchmark, not a test: issue 62's cost of a validate_doc_update per write. One fresh Apache CouchDB 3.5 node
# (../shared/couchdb/, QuickJS, on a free loopback port), then ROUNDS rounds, each a Tenants run without and one with
# -Dvalidate=true (TENANTS users, each its own database, basic auth at -Diterations=ITERATIONS, -Dread=READ, DURATION s),
# the two in turn and their order swapped every other round, so that the machine's drift falls on both. Each run prints
# one line (its writes a second, write p50 and p99); then each round's ratio with/without, and their median.
#
#   bench/tenants-validate.sh                                 # about 5 minutes
#   ROUNDS=5 TENANTS=20 DURATION=20 bench/tenants-validate.sh
#   ROUNDS=1 DURATION=3 bench/tenants-validate.sh             # a check of the script, not a measurement
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-4}
TENANTS=${TENANTS:-20}
DURATION=${DURATION:-20}
ITERATIONS=${ITERATIONS:-1000}
READ=${READ:-0.5}
LIMIT=${LIMIT:-300}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out tenants-validate
bench_classpath

bench_start_couchdb "$out/node" validate
trap 'bench_stop_couchdb "$out/node"' EXIT
for round in $(seq "$ROUNDS"); do
  order="false true"
  [ $((round % 2)) -eq 0 ] && order="true false"
  for validate in $order; do
    # The password from the environment, out of ps.
    folder=$(COUCHDB_PASSWORD=$COUCH_PASSWORD bench_gatling Tenants "$out/run-$round-$validate.log" \
      -Dcouchdb.url="$URL" -Dcouchdb.user=admin -Dtenants="$TENANTS" -Diterations="$ITERATIONS" -Dread="$READ" \
      -Dduration="$DURATION" -Dvalidate="$validate" -Ddatabase="bench_validate")
    [ -n "$folder" ] || { echo "no summary for round $round -Dvalidate=$validate; see $out/run-$round-$validate.log" >&2; exit 1; }
    echo "$round $validate $folder" >>"$out/runs.txt"
  done
done
python3 - "$DURATION" "$out/runs.txt" <<'PY'
import json, statistics, sys
duration, runs = float(sys.argv[1]), sys.argv[2]
write = {}
for line in open(runs):
    round_, validate, folder = line.split()
    run = json.load(open(folder + "/results.json"))
    entry = next(e for e in run["requests"] if e["name"] == "basic write")
    write[(round_, validate)] = entry
    print(f"round {round_} -Dvalidate={validate}: basic write {entry['ok'] / duration:,.0f}/s OK, p50"
          f" {entry['latency']['p50'] / 1000:.0f} ms, p99 {entry['latency']['p99'] / 1000:.0f} ms, KO {entry['ko']}")
for figure in ("p50", "p99"):
    ratios = [write[(r, "true")]["latency"][figure] / write[(r, "false")]["latency"][figure]
              for r, v in write if v == "true" and (r, "false") in write and write[(r, "false")]["latency"][figure]]
    print(f"write {figure} with validate / without, by round: " + ", ".join(f"{x:.2f}" for x in ratios)
          + f"; median {statistics.median(ratios):.2f}")
rates = [write[(r, "true")]["ok"] / write[(r, "false")]["ok"] for r, v in write if v == "true"]
print("writes a second with validate / without, by round: " + ", ".join(f"{x:.2f}" for x in rates)
      + f"; median {statistics.median(rates):.2f}")
PY
