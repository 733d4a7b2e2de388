#!/usr/bin/env bash
# Benchmark, not a test: issue 62's max_dbs_open wall. For each LIMIT, a fresh Apache CouchDB 3.5 node
# (../shared/couchdb/, on a free loopback port: lowering max_dbs_open through _config closes no open database, so each
# limit starts from a node with few open), then Tenants with TENANTS users (a database of 2 shards each) for DURATION s at
# -Diterations=ITERATIONS and -DmaxDbsOpen=LIMIT. Each run prints one line: the reads and writes answered a second, the
# refusals for want of an open database by reason, the other failures, and the databases open second by second (median
# and most, from seconds.csv). Exit code 2 at low limits is expected: CouchDB answers some requests at the wall with
# other 500s (docs/tenants.md), which fail the run named.
#
#   bench/tenants-wall.sh                                    # about 6 minutes
#   LIMITS="100 800" TENANTS=200 DURATION=30 bench/tenants-wall.sh
#   LIMITS=50 TENANTS=20 DURATION=3 bench/tenants-wall.sh    # a check of the script, not a measurement
set -euo pipefail
cd "$(dirname "$0")/.."
LIMITS=${LIMITS:-"100 200 400 800"}
TENANTS=${TENANTS:-200}
DURATION=${DURATION:-30}
ITERATIONS=${ITERATIONS:-1000}
LIMIT=${LIMIT:-900}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out tenants-wall
bench_classpath

for limit in $LIMITS; do
  bench_start_couchdb "$out/node-$limit" "wall$limit"
  trap 'bench_stop_couchdb "$out/node-$limit"' EXIT
  # The password from the environment, out of ps.
  folder=$(COUCHDB_PASSWORD=$COUCH_PASSWORD bench_gatling Tenants "$out/run-$limit.log" -Dcouchdb.url="$URL" \
    -Dcouchdb.user=admin -Dtenants="$TENANTS" -Diterations="$ITERATIONS" -DmaxDbsOpen="$limit" -Dduration="$DURATION" \
    -Ddatabase="bench_wall_$limit")
  bench_stop_couchdb "$out/node-$limit"
  trap - EXIT
  [ -n "$folder" ] || { echo "no summary for -DmaxDbsOpen=$limit; see $out/run-$limit.log" >&2; exit 1; }
  python3 - "$limit" "$DURATION" "$folder" <<'PY'
import csv, json, statistics, sys
limit, duration, folder = sys.argv[1], float(sys.argv[2]), sys.argv[3]
run = json.load(open(folder + "/results.json"))
wall = run["figures"]["wall"]
ok = {e["name"]: e["ok"] for e in run["requests"] if e["kind"] == "request"}
with open(folder + "/seconds.csv") as seconds:
    rows = list(csv.DictReader(seconds))
column = next((name for name in rows[0] if name.startswith("couchdb open databases")), None) if rows else None
opened = [float(row[column]) for row in rows if column and row[column] not in ("", "NaN")]
refused = ", ".join(f"{reason}: {count:,}" for reason, count in wall["refused"].items()) or "none"
print(f"max_dbs_open {limit}: basic read {ok.get('basic read', 0) / duration:,.0f}/s, basic write"
      f" {ok.get('basic write', 0) / duration:,.0f}/s OK; refused for want of an open database: {refused};"
      f" other failures {run['figures']['failedCount']:,}; open databases at the limit's setting {wall['openAtStart']},"
      f" then median {statistics.median(opened) if opened else 'n/a'}, most {max(opened) if opened else 'n/a'}")
PY
done
