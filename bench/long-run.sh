#!/usr/bin/env bash
# Benchmark, not a test: issue 13's long runs, in the Gatling JVM's default heap (1 GB, as the Maven
# plugin gives it). First MemSet at full speed for DURATION seconds (30 min) against a memcached
# started here on a free loopback port (2 GB, one thread, bench/lib.sh); then a CouchVsMemcache of
# STEP seconds per step (60: about 10 min for its nine steps and warm-up) against the local
# pouchdb-server and memcached it starts itself. For each run it prints, on lines starting with the
# run's name: the requests acknowledged, the heap in use after a full GC every PROBE seconds
# (-Dcouchbench.heapProbe), the largest classes of the heap at the middle and near the end of the
# load (jcmd GC.class_histogram), how long Gatling took to parse its log and write its report after
# the load, and each key file's size and lines against what the server counted. docs/long-runs.md
# quotes these lines.
#
#   bench/long-run.sh                          # about 30 + 25 (MemSet's report) + 12 min
#   DURATION=90 STEP=10 bench/long-run.sh      # the check: about 5 min
#
# Disk: the key file takes 33 bytes a key and Gatling's simulation.log some 22 bytes a request:
# about 6 GB for 30 minutes at 55,000 sets/s, under /tmp (removed by hand: the folder is printed).
# The probe's full GC pauses the run for tens of milliseconds every PROBE seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-1800} # MemSet's load, seconds
STEP=${STEP:-60}           # CouchVsMemcache's seconds per step
USERS=${USERS:-16}         # MemSet's connections, as in the memcache benchmarks
PROBE=${PROBE:-30}         # seconds between two heap probes
given_limit=${LIMIT:-}
# shellcheck source=bench/lib.sh
. bench/lib.sh
# Gatling parses its log at some 15 us a request after the load (docs/long-runs.md): allow for it.
LIMIT=${given_limit:-$((DURATION * 2 + 20 * STEP + 900))}
bench_start_memcached long-run
bench_classpath
echo "long-run: results in $out; MemSet $DURATION s at $USERS users against $SERVER, CouchVsMemcache $STEP s a step"

# memcache_stat NAME: one counter of the memcached started here.
memcache_stat() {
  exec 3<>"/dev/tcp/127.0.0.1/$PORT"
  printf 'stats\r\nquit\r\n' >&3
  tr -d '\r' <&3 | awk -v name="$1" '$1 == "STAT" && $2 == name { print $3 }'
  exec 3<&-
}

# watch_run NAME LOG LOAD_SECONDS: while the run goes, a class histogram of its JVM at the middle
# and at nine tenths of its load (the JVM's pid is in its part file's name, printed at its start).
watch_run() {
  local name=$1 log=$2 load=$3 pid=""
  for _ in $(seq 600); do
    pid=$(sed -n 's|^couchbench: key file: acknowledged keys go to .*\.\([0-9]*\)\.part as they come.*|\1|p' "$log" 2>/dev/null | head -1)
    [ -n "$pid" ] && break
    sleep 0.2
  done
  [ -n "$pid" ] || return 0
  for share in 50 90; do
    sleep $((load * (share == 50 ? 50 : 40) / 100))
    echo "$name: heap histogram at $share% of the load (live objects after a full GC; top 12 classes):"
    jcmd "$pid" GC.class_histogram 2>/dev/null | sed -n '4,15p' | awk -v name="$name" \
      '{ printf "%s:   %-70s %10d objects %8.1f MB\n", name, $4, $2, $3 / 1048576 }' || true
  done
}

# report_figures NAME LOG STARTED: heap probes, and what came after the load, from a finished run's log.
report_figures() {
  local name=$1 log=$2 started=$3
  echo "$name: wall time of the whole run: $(($(date +%s) - started)) s"
  awk -v name="$name" '
    /^couchbench: heap probe: / { probes = probes " " $4 "s:" sprintf("%.1f", $6 / 1048576) }
    /^Simulation .* started/ { probes = probes " [load]" }
    /^couchbench: key file: .* written to / { probes = probes " [load ended]" }
    /^Parsing log file\(s\)\.\.\.$/ { probes = probes " [report]" }
    /^Parsing log file\(s\) done in/ { parse = $6; sub(/\.$/, "", parse) }
    /^Reports generated/ { generated = 1 }
    END {
      print name ": heap after GC, seconds since the JVM started: MB:" probes
      print name ": Gatling parsed its simulation.log in " parse " after the load; report written: " (generated ? "yes" : "NO")
    }' "$log"
  grep -E '^couchbench: .*: [0-9]+ transactions' "$log" | sed "s|^couchbench: |$name: |"
  ls -l "$(dirname "$(grep -o 'file://.*index.html' "$log" | sed 's|file://||' | head -1)")/simulation.log" 2>/dev/null \
    | awk -v name="$name" '{ printf "%s: simulation.log %.1f MB\n", name, $5 / 1048576 }' || true
}

# key_file NAME FILE: a key file's size and lines.
key_file() {
  if [ -f "$2" ]; then
    echo "$1: key file $(basename "$2"): $(($(stat -c %s "$2") / 1048576)) MB, $(($(wc -l <"$2") - 1)) keys"
  else
    echo "$1: key file $(basename "$2") was not written"
  fi
}

log=$out/memset.log
started=$(date +%s)
: >"$log"
watch_run memset "$log" "$DURATION" &
watcher=$!
bench_gatling MemSet "$log" -Dmemcache.servers="$SERVER" -Dusers="$USERS" -Dduration="$DURATION" \
  -DkeyFile="$out/memcache.csv" -Dcouchbench.heapProbe="$PROBE" >/dev/null
wait "$watcher" || true
report_figures memset "$log" "$started"
key_file memset "$out/memcache.csv"
# Gatling's last console table: "> warm-up memcache set  |  total |  OK |  KO".
warmups=$(awk -F'|' '/^> warm-up memcache set / { ok = $3 } END { gsub(/[ ,]/, "", ok); print ok }' "$log")
echo "memset: memcached cmd_set $(memcache_stat cmd_set) = keys + $warmups warm-up sets (Gatling's count), evictions $(memcache_stat evictions)"
# MemSet's memcached stays up, idle, until the script ends (bench/lib.sh's trap stops it): CouchVsMemcache
# starts its own servers.

log=$out/versus.log
started=$(date +%s)
: >"$log"
# The nine steps' load: four writes and five reads, each STEP seconds.
watch_run versus "$log" $((9 * STEP)) &
watcher=$!
bench_gatling CouchVsMemcache "$log" -Dduration="$STEP" -DkeyDir="$out/keys" \
  -Dcouchbench.heapProbe="$PROBE" >/dev/null
wait "$watcher" || true
report_figures versus "$log" "$started"
for file in memcache couchdb memcache-records couchdb-records; do
  key_file versus "$out/keys/$file.csv"
done
grep -E '^couchbench: key file: [0-9]+ keys acknowledged' "$log" | sed 's|^couchbench: |versus: |'
# The summary's warnings: the servers' counts against the client's, when they disagree.
grep -ho '<p class="warning">[^<]*' "$out"/reports/couchvsmemcache-*/summary.html 2>/dev/null \
  | sed 's|^<p class="warning">|versus: summary warning: |' || true
