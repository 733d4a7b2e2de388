#!/usr/bin/env bash
# Benchmark, not a test: issue 60's comparison of CouchDB's JavaScript engines. A fresh Apache CouchDB 3.5 node
# (../shared/couchdb/, or COUCHDB_HOME naming an unpacked release) on a free loopback port, then two runs of
# variants, config.couchdb.js_engine=quickjs against spidermonkey, ROUNDS rounds each, interleaved:
#   - Query with -Dreduce=javascript: its four JavaScript views built over DOCS orders (the sum view reducing in
#     JavaScript), then the sum queries, which read the reductions;
#   - ViewQuery with -Dsetup=fresh: the seed's view (emit(doc._id, doc)) built over ROWS documents in each round,
#     then CONNS connections at RATE a second querying it.
# It prints each run's verdict lines; the pages are under $out/reports. SpiderMonkey's couchjs needs Debian's
# libmozjs-102-0 (apt-get install libmozjs-102-0); the script stops in one line without it.
#
#   bench/js-engines.sh                              # about 28 minutes
#   ROUNDS=3 DOCS=5000 ROWS=5000 bench/js-engines.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
DOCS=${DOCS:-20000}
ROWS=${ROWS:-20000}
RATE=${RATE:-1}
CONNS=${CONNS:-10}
if ! /sbin/ldconfig -p | grep -q 'libmozjs-102\.so'; then
  echo "no libmozjs-102 here: SpiderMonkey's couchjs cannot start; apt-get install libmozjs-102-0" >&2
  exit 1
fi
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out js-engines
bench_classpath
bench_start_couchdb "$out/node" jsengines
trap 'bench_stop_couchdb "$out/node"' EXIT
ENGINES="quickjs:config.couchdb.js_engine=quickjs;spidermonkey:config.couchdb.js_engine=spidermonkey"

run() {
  local simulation=$1
  shift
  LIMIT=3600 bench_gatling "$simulation" "$out/$simulation.log" -Dcouchdb.url="$URL" -Dcouchdb.user=admin \
    -Dcouchdb.password="$COUCH_PASSWORD" -Drounds="$ROUNDS" -Dvariants="$ENGINES" "$@" >"$out/$simulation.folder"
  grep '^couchbench: \(variant\|stopped\)' "$out/$simulation.log" || true
  [ -s "$out/$simulation.folder" ] || { echo "$simulation left no summary; see $out/$simulation.log" >&2; exit 1; }
  echo "js-engines: $simulation's verdicts in $(cat "$out/$simulation.folder")"
}

run Query -Dreduce=javascript -Ddocs="$DOCS" -Dqueries=sum -Dusers=2 -Drequests=200
run ViewQuery -Dsetup=fresh -Drows="$ROWS" -Drate="$RATE" -Dconns="$CONNS"
