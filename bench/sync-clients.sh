#!/usr/bin/env bash
# Benchmark, not a test: issue 45's sync figures. A fresh Apache CouchDB 3.5 node (../shared/couchdb/, or COUCHDB_HOME
# naming an unpacked release) on a free loopback port, and a Sync run for each count of CLIENTS in the default heap (1
# GB, as the Maven plugin gives it): each client syncing SYNCS times, INTERVAL seconds apart, 10 clients a database.
# For each it prints, on lines starting with "clients N:", a sync's time (Gatling's group), the requests a sync, how
# long until one client's write reached the others, the server's CPU, and whether every client ended equal to the
# server; docs/replication.md quotes them. BULKGET lists -DbulkGet's values to run, in turn, for each count: false
# pulls as PouchDB does without _bulk_get (_all_docs by keys, then GET ?open_revs= a document at a time).
#
#   bench/sync-clients.sh                        # about 4 minutes
#   CLIENTS="100" BULKGET="true false true false" bench/sync-clients.sh    # with and without _bulk_get, interleaved
set -euo pipefail
cd "$(dirname "$0")/.."

CLIENTS=${CLIENTS:-100 1000}
SYNCS=${SYNCS:-5}
INTERVAL=${INTERVAL:-5}
BULKGET=${BULKGET:-true}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out sync-clients
bench_classpath
bench_start_couchdb "$out/node" sync
trap 'bench_stop_couchdb "$out/node"' EXIT

cpu_ticks() { awk '{ sub(/.*\) /, ""); split($0, f, " "); print f[12] + f[13] }' "/proc/$1/stat"; }

round=0
for clients in $CLIENTS; do
  for bulk in $BULKGET; do
  round=$((round + 1))
  n="$clients (bulkGet=$bulk)"
  s0=$(cpu_ticks "$couch"); t0=$(date +%s.%N)
  LIMIT=900 bench_gatling Sync "$out/run-$round.log" -Dcouchdb.url="$URL" -Dcouchdb.user=admin \
    -Dcouchdb.password="$COUCH_PASSWORD" -Dclients="$clients" -Dsyncs="$SYNCS" -DsyncInterval="$INTERVAL" \
    -DbulkGet="$bulk" -Ddatabase="bench_sync_$round" >"$out/folder-$round"
  s1=$(cpu_ticks "$couch"); t1=$(date +%s.%N)
  folder=$(cat "$out/folder-$round")
  [ -n "$folder" ] || { echo "no summary for $n clients; see $out/run-$round.log" >&2; exit 1; }
  python3 - "$n" "$folder/results.json" "$s0" "$s1" "$t0" "$t1" <<'PY'
import json, sys
n, results, s0, s1, t0, t1 = sys.argv[1:7]
run = json.load(open(results))
figures = run["figures"]
sync = next(e for e in run["requests"] if e["name"] == "sync")
requests = sum(e["count"] for e in run["requests"] if e["kind"] == "request")
cpu = (int(s1) - int(s0)) / 100
print(f"clients {n}: {figures['syncs']:,} syncs ({figures['failedSyncs']} failed), a sync p50"
      f" {sync['latency']['p50'] / 1000:.0f} ms, p99 {sync['latency']['p99'] / 1000:.0f} ms, max"
      f" {sync['latency']['max'] / 1000:.0f} ms; {requests / figures['syncs']:.1f} requests a sync;"
      f" {figures['revisionsPushed']:,} revisions pushed, {figures['revisionsPulled']:,} pulled")
print(f"clients {n}: {figures['clientsEqual']} of {figures['clientsCompared']} clients equal to the server,"
      f" {figures['serverConflicts']} documents in conflict of {figures['serverDocs']:,}; server CPU {cpu:.1f} s in"
      f" {float(t1) - float(t0):.0f} s")
PY
  (cd "$folder" && python3 -c "
import csv
for row in csv.reader(open('how-long-until-a-write-of-one-client-reaches-the-others.csv')):
    if row[0].startswith('a client'): print('clients $n: a write reached the others: p50 ' + row[2] + ' s, p95 ' + row[3] + ' s, p99 ' + row[4] + ' s, max ' + row[6] + ' s')
")
  done
done
echo "sync-clients: results in $out"
