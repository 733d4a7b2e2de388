#!/usr/bin/env bash
# Benchmark, not a test: issue 43's scale. For each count of LISTENERS (100, 1,000, 10,000 continuous
# listeners), a fresh Apache CouchDB 3.5 node (../shared/couchdb/, or COUCHDB_HOME naming an unpacked
# release) on a free loopback port, and a Changes run in the default heap (1 GB, as the Maven plugin gives
# it): one writer writes DOCS documents at RATE a second while the listeners follow. Every listener gets
# RATE rows a second, so the server sends RATE x LISTENERS rows a second. For each count it prints, on
# lines starting with "listeners N:", the connections held, the notification latency, the client's heap
# in use after a full GC (its largest probe during the load) and its CPU during the load, per listener, and
# the server's CPU and resident memory beside them. docs/changes.md quotes these lines.
#
#   bench/changes-listeners.sh                        # about 5 minutes
#   LISTENERS="100 1000" DOCS=20 bench/changes-listeners.sh
set -euo pipefail
cd "$(dirname "$0")/.."

LISTENERS=${LISTENERS:-100 1000 10000}
DOCS=${DOCS:-30} # documents written, one a 1/RATE s
RATE=${RATE:-1}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out changes-listeners
bench_classpath

# cpu_ticks PID: user + system ticks of a process (1/100 s each).
cpu_ticks() { awk '{ sub(/.*\) /, ""); split($0, f, " "); print f[12] + f[13] }' "/proc/$1/stat"; }
# rss_kb PID: its resident memory now, and its peak, in kB.
rss_kb() { awk '/^VmRSS/ { rss = $2 } /^VmHWM/ { peak = $2 } END { print rss, peak }' "/proc/$1/status"; }

for n in $LISTENERS; do
  node=$out/node-$n
  bench_start_couchdb "$node" "$n"
  beam=$couch

  log=$out/run-$n.log
  LIMIT=$((DOCS / RATE + 300)) bench_gatling Changes "$log" -Dcouchdb.url="$URL" -Dcouchdb.user=admin \
    -Dcouchdb.password="$COUCH_PASSWORD" -Dlisteners="$n" -Dfeed=continuous -Dwriters=1 -Drate="$RATE" -Ddocs="$DOCS" \
    -Dquiet=60 -Dcouchbench.heapProbe=5 >"$out/folder-$n" &
  run=$!
  # The load runs from the run folder's line to the results' line: CPU counted between the two.
  for _ in $(seq 600); do grep -q '^couchbench: run folder:' "$log" 2>/dev/null && break; sleep 0.1; done
  client=$(for p in $(pgrep -f "results-folder $out/reports"); do [ "$(cat "/proc/$p/comm")" = java ] && echo "$p"; done)
  c0=$(cpu_ticks "$client"); s0=$(cpu_ticks "$beam"); t0=$(date +%s.%N)
  for _ in $(seq 6000); do grep -q '^couchbench: results:' "$log" 2>/dev/null && break; sleep 0.1; done
  c1=$(cpu_ticks "$client"); s1=$(cpu_ticks "$beam"); t1=$(date +%s.%N)
  client_rss=$(rss_kb "$client"); server_rss=$(rss_kb "$beam")
  wait "$run" || true
  folder=$(cat "$out/folder-$n")
  heap=$(sed -n 's/^couchbench: heap probe: [0-9]* s, \([0-9]*\) bytes used after GC$/\1/p' "$log" | sort -n | tail -1)
  python3 - "$n" "$folder/results.json" "$c0" "$c1" "$s0" "$s1" "$t0" "$t1" "${heap:-0}" "$client_rss" "$server_rss" \
    "${previous:-}" <<'PY'
import json, sys
n, results, c0, c1, s0, s1, t0, t1, heap = sys.argv[1:10]
client_rss, server_rss, previous = sys.argv[10].split(), sys.argv[11].split(), sys.argv[12].split()
n = int(n); seconds = float(t1) - float(t0)
figures = json.load(open(results))["figures"]
feed = figures["feeds"][0]
client_cpu = (int(c1) - int(c0)) / 100; server_cpu = (int(s1) - int(s0)) / 100
print(f"listeners {n}: held {feed['mostConnections']} connections at once, delivered {feed['delivered']:,} of"
      f" {feed['expected']:,}, missed {feed['missed']}, duplicated {feed['duplicated']}, reconnects {feed['reconnects']};"
      f" writes {figures['writes']['acknowledged']} in a load of {seconds:.1f} s")
# The heap a listener adds: against the last count run, which holds Gatling's and couchbench's own heap too.
added = (f", {(int(heap) - int(previous[1])) / (n - int(previous[0])) / 1024:.1f} kB a listener more than at"
         f" {previous[0]}" if previous else "")
print(f"listeners {n}: client heap after GC {int(heap) / 1048576:.1f} MB{added},"
      f" RSS {int(client_rss[0]) / 1024:.0f} MB (peak {int(client_rss[1]) / 1024:.0f} MB);"
      f" CPU {client_cpu:.2f} s in the load ({client_cpu / seconds * 100:.1f}% of a core,"
      f" {client_cpu / n / seconds * 1e6:.1f} us a listener a second,"
      f" {client_cpu / max(feed['delivered'], 1) * 1e6:.1f} us a notification)")
print(f"listeners {n}: server CPU {server_cpu:.2f} s in the load ({server_cpu / seconds * 100:.1f}% of a core,"
      f" {server_cpu / max(feed['delivered'], 1) * 1e6:.1f} us a notification), RSS"
      f" {int(server_rss[0]) / 1024:.0f} MB (peak {int(server_rss[1]) / 1024:.0f} MB)")
PY
  (cd "$folder" && python3 -c "
import csv
for row in csv.reader(open('latency-each-write-to-each-listener-and-the-writes-themselves.csv')):
    if row[0].startswith('notification'): print('listeners $n: ' + row[0] + ': p50 ' + row[2] + ' ms, p99 ' + row[4] + ' ms, max ' + row[6] + ' ms')
")
  previous="$n ${heap:-0}"
  bench_stop_couchdb "$node"
done
echo "changes-listeners: results in $out"
