#!/usr/bin/env bash
# Benchmark, not a test: issue 44's table. A fresh Apache CouchDB 3.5 node (../shared/couchdb/, or COUCHDB_HOME
# naming an unpacked release) on a free loopback port, and one Query run: DOCS orders in a global and a partitioned
# database, every query class asked every way it has, USERS users of REQUESTS requests each. It prints each index's
# build and, per query class, each way's latency and what the server examined per result, on lines starting with
# "build" and "query"; docs/query.md quotes them.
#
#   bench/query-classes.sh                      # about 6 minutes
#   DOCS=5000 REQUESTS=300 bench/query-classes.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DOCS=${DOCS:-20000}
USERS=${USERS:-2}
REQUESTS=${REQUESTS:-1200}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out query-classes
bench_classpath
bench_start_couchdb "$out/node" query
trap 'bench_stop_couchdb "$out/node"' EXIT

LIMIT=1800 bench_gatling Query "$out/run.log" -Dcouchdb.url="$URL" -Dcouchdb.user=admin \
  -Dcouchdb.password="$COUCH_PASSWORD" -Ddocs="$DOCS" -Dpartitioned=both -Dusers="$USERS" \
  -Drequests="$REQUESTS" >"$out/folder"
folder=$(cat "$out/folder")
[ -n "$folder" ] || { echo "the run left no summary; see $out/run.log" >&2; exit 1; }
grep '^couchbench: \(load\|query\)' "$out/run.log"
python3 - "$folder" <<'PY'
import csv, glob, os, sys
folder = sys.argv[1]
for row in list(csv.reader(open(glob.glob(os.path.join(folder, "each-index-s-build*.csv"))[0])))[1:]:
    print(f"build {row[0]} {row[1]}: {row[2]} s, index {row[5]} MB, server CPU {row[6]} s")
for path in sorted(glob.glob(os.path.join(folder, "*.csv"))):
    rows = list(csv.reader(open(path)))
    if rows and rows[0][:2] == ["way", "database"]:
        query = os.path.basename(path).split("-")[0]
        for row in rows[1:]:
            print(f"query {query} | {row[0]} | {row[1]} | {row[2]} requests, {row[3]} failed | p50 {row[5]} ms,"
                  f" p90 {row[6]} ms, p99 {row[7]} ms | docs examined a reply {row[9]}, a result {row[10]} | warnings {row[12]}")
PY
echo "query-classes: results in $folder"
