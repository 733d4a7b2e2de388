#!/usr/bin/env bash
# Benchmark, not a test: issue 62's cost of each way a user authenticates. One fresh Apache CouchDB 3.5 node
# (../shared/couchdb/, QuickJS, on a free loopback port), then for each of ITERATIONS (PBKDF2 iterations, set for the
# run by -Diterations) ROUNDS rounds, each a Tenants run per method of AUTHS (TENANTS users, each its own database,
# DURATION s of requests after each user's first), the methods' order turned by one every round, so that the
# machine's drift falls on all. Each run's users are new (a prefix of their own): CouchDB's cache of password hashes is
# cold for each user's first request. Each run prints one line per request name (p50 and p99 in ms, how many); then,
# per iterations and method, the medians over the rounds of each name's p50 and p99.
#
#   bench/tenants-auth.sh                                     # about 10 minutes
#   ROUNDS=3 ITERATIONS="600000 10000" TENANTS=20 DURATION=10 bench/tenants-auth.sh
#   ROUNDS=1 ITERATIONS=1000 DURATION=3 bench/tenants-auth.sh  # a check of the script, not a measurement
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-2}
ITERATIONS=${ITERATIONS:-600000 10000}
AUTHS=${AUTHS:-basic cookie jwt proxy}
TENANTS=${TENANTS:-20}
DURATION=${DURATION:-10}
LIMIT=${LIMIT:-600}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out tenants-auth
bench_classpath

bench_start_couchdb "$out/node" auth
trap 'bench_stop_couchdb "$out/node"' EXIT
read -r -a methods <<<"$AUTHS"
for iterations in $ITERATIONS; do
  for round in $(seq "$ROUNDS"); do
    for i in "${!methods[@]}"; do
      auth=${methods[$(((i + round - 1) % ${#methods[@]}))]}
      # The password from the environment, out of ps.
      folder=$(COUCHDB_PASSWORD=$COUCH_PASSWORD bench_gatling Tenants "$out/run-$iterations-$round-$auth.log" \
        -Dcouchdb.url="$URL" -Dcouchdb.user=admin -Dtenants="$TENANTS" -Diterations="$iterations" -Dauth="$auth" \
        -Dduration="$DURATION" -Ddatabase="bench_auth_${iterations}_${round}_$auth")
      [ -n "$folder" ] || { echo "no summary for $auth at $iterations iterations, round $round; see $out/run-$iterations-$round-$auth.log" >&2; exit 1; }
      echo "$iterations $round $auth $folder" >>"$out/runs.txt"
      python3 - "$iterations" "$round" "$auth" "$folder" <<'PY'
import json, sys
iterations, round_, auth, folder = sys.argv[1:]
for e in json.load(open(folder + "/results.json"))["requests"]:
    if e["kind"] == "request" and not e["name"].startswith("probe"):
        print(f"{iterations} iterations, round {round_}, {auth}: {e['name']}: p50 {e['latency']['p50'] / 1000:.1f} ms,"
              f" p99 {e['latency']['p99'] / 1000:.1f} ms, {e['count']:,} ({e['ko']} KO)")
PY
    done
  done
done
python3 - "$out/runs.txt" <<'PY'
import collections, json, statistics, sys
figures = collections.defaultdict(list)
for line in open(sys.argv[1]):
    iterations, _, auth, folder = line.split()
    for e in json.load(open(folder + "/results.json"))["requests"]:
        if e["kind"] == "request" and not e["name"].startswith("probe"):
            figures[(int(iterations), auth, e["name"])].append((e["latency"]["p50"], e["latency"]["p99"], e["count"]))
for (iterations, auth, name), runs in sorted(figures.items(), key=lambda item: (-item[0][0], item[0][1], item[0][2])):
    p50 = statistics.median(r[0] for r in runs) / 1000
    p99 = statistics.median(r[1] for r in runs) / 1000
    print(f"median of {len(runs)} rounds, {iterations:,} iterations, {auth}: {name}: p50 {p50:.1f} ms, p99 {p99:.1f} ms"
          f" ({', '.join(str(r[2]) for r in runs)} requests)")
PY
