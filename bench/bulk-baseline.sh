#!/usr/bin/env bash
# Benchmark, not a test: BulkInsert's docs/s against minimal clients sending the same _bulk_docs bodies
# with the same concurrency to the same CouchDB: BulkBaseline's JDK HttpClient (jdk) and bare socket
# (socket), and a Python http.client loop (python, bench/bulk_baseline.py). Rounds are interleaved, and
# their order alternates, so that noise from a shared machine falls on every client alike; prints the
# medians, BulkInsert over the best minimal client of each round, and the CPU each side used per
# request. See docs/benchmarks.md.
#
#   bench/bulk-baseline.sh                                  # a pouchdb-server of its own on 127.0.0.1:PORT
#   ROUNDS=5 THREADS=1,2 STEPS="1:4096 64:16384 1024:32768" PORT=5985 bench/bulk-baseline.sh
#   COUCHDB=1 bench/bulk-baseline.sh                       # a fresh Apache CouchDB 3.5 node (../shared/couchdb/)
#   URL=http://127.0.0.1:5984 COUCHDB_USER=admin COUCHDB_PASSWORD=... bench/bulk-baseline.sh   # any CouchDB
#   CLIENTS="BulkInsert socket" WIRE=1 ROUNDS=1 bench/bulk-baseline.sh   # some clients; WIRE=1: tcpdump each run
#   BASELINE=/tmp/before CLIENTS="BulkInsert baseline python" bench/bulk-baseline.sh   # another build beside this one
#   BASELINE=. BASELINE_FLAGS=-DsampleServers=false CLIENTS="BulkInsert baseline" bench/bulk-baseline.sh   # a setting
#   WARMUP=1 COUCHDB=1 bench/bulk-baseline.sh              # one round first, every client once, counted nowhere
#
# About 8 minutes with the defaults on 2 cores, 13 with ROUNDS=5.
# STEPS is a list of B:N, N documents per step at batch size B: one N for all B would make the B=1
# steps last minutes or the B=1024 steps a fraction of a second.
# The server's CPU is read for a server on this machine: the script's own, or the process listening on
# URL's port (root sees every user's). WIRE=1 (root, tcpdump) splits each connection's time into the
# server's (request's first byte to reply's last) and the client's (reply's last byte to the next
# request's first); capturing costs CPU too, so its docs/s are not the headline figures.
# BASELINE=DIR: another checkout (built by the script) runs its own BulkInsert as the client "baseline", in the same
# rounds and against the same server: BulkInsert / baseline is then printed per step beside BulkInsert / best, and
# "best" is of the minimal clients only. BASELINE_FLAGS: -D options of the baseline's runs alone (BASELINE=. with
# BASELINE_FLAGS weighs one setting of this build).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
WARMUP=${WARMUP:-0} # rounds run first and counted nowhere: a fresh server's first writes are not its steady ones
THREADS=${THREADS:-1,2}
STEPS=${STEPS:-"1:4096 64:16384 1024:32768"}
PORT=${PORT:-} # empty: a free one
BASELINE=${BASELINE:-}
BASELINE_FLAGS=${BASELINE_FLAGS:-}
CLIENTS=${CLIENTS:-"BulkInsert ${BASELINE:+baseline }jdk socket python"}
WIRE=${WIRE:-0}
URL=${URL:-}
COUCHDB=${COUCHDB:-0}
export COUCHDB_USER=${COUCHDB_USER:-} COUCHDB_PASSWORD=${COUCHDB_PASSWORD:-}
# shellcheck source=bench/lib.sh
. bench/lib.sh

if [ "$WIRE" = 1 ]; then
  command -v tcpdump >/dev/null || { echo "WIRE=1 needs tcpdump: apt-get install -y tcpdump" >&2; exit 1; }
fi
if [ "$COUCHDB" = 1 ]; then
  out=$(mktemp -d /tmp/bulk-baseline.XXXXXX)
  bench_start_couchdb "$out/node" bulkbaseline
  trap 'bench_stop_couchdb "$out/node"' EXIT
  server_pid=$couch
  COUCHDB_USER=admin COUCHDB_PASSWORD=$COUCH_PASSWORD
elif [ -z "$URL" ]; then
  bench_start_pouchdb bulk-baseline "$PORT"
  server_pid=$server
else
  # The password stays in the environment, out of ps and of every line printed.
  case $URL in *@*) echo "URL holds a login: give it as COUCHDB_USER and COUCHDB_PASSWORD instead" >&2; exit 1 ;; esac
  URL=${URL%/}
  out=$(mktemp -d /tmp/bulk-baseline.XXXXXX)
  hostport=${URL#*://}; hostport=${hostport%%/*}
  PORT=${hostport##*:}
  [ "$PORT" != "$hostport" ] || PORT=$([ "${URL%%://*}" = https ] && echo 443 || echo 80)
  # A benchmark's load stays on this machine: the CouchDB must answer on loopback.
  case ${hostport%:*} in
    127.*|localhost|\[::1\]) server_pid=$(ss -Hltnp "sport = :$PORT" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1) ;;
    *) echo "URL must be a CouchDB on this machine (127.x.x.x, localhost or [::1]): $URL" >&2; exit 1 ;;
  esac
  # curl reads the login from its config on stdin, where \ and " are escaped.
  login=$COUCHDB_USER:$COUCHDB_PASSWORD; login=${login//\\/\\\\}; login=${login//\"/\\\"}
  status=$(curl -s -o /dev/null -w '%{http_code}' ${COUCHDB_USER:+-K -} "$URL/_all_dbs" \
    <<<"${COUCHDB_USER:+user = \"$login\"}" || true)
  [ "$status" = 200 ] || { echo "CouchDB at $URL answers GET /_all_dbs with '$status' (expected 200): check URL and login" >&2; exit 1; }
fi
echo "target: $URL${COUCHDB_USER:+ as $COUCHDB_USER}; server process: ${server_pid:-not on this machine or not visible}"
bench_classpath
if [ -n "$BASELINE" ]; then
  BASELINE=$(cd "$BASELINE" && pwd)
  (cd "$BASELINE" && timeout "$LIMIT" mvn -q -B test-compile >>"$out/build.log" 2>&1) ||
    { echo "BASELINE=$BASELINE does not build: see $out/build.log" >&2; exit 1; }
fi

results=$out/results.csv # round,client,B,T,docs/s,client CPU s,client JIT s,server CPU s
echo "round,client,B,T,docs/s,client cpu,client jit,server cpu" >"$results"
wire=$out/wire.csv # per connection of a step: requests, mean ms per request of the server and of the client
echo "round,client,B,T,requests,server ms,client ms" >"$wire"

# Reads a client's CSV (columns by name: B, T, docs/s, client CPU (s), client JIT (s), server CPU (s)).
collect() { # round client csv
  awk -F, -v r="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { print r "," c "," $col["B"] "," $col["T"] "," $col["docs/s"] "," $col["client CPU (s)"] "," \
        $col["client JIT (s)"] "," $col["server CPU (s)"] }' "$3" >>"$results"
}

bulkinsert() { # round B N csv [-D options]
  local log=$out/bulkinsert-$1-b$2-${5:+baseline-}$(basename "$PWD").log report attempt
  for attempt in 1 2 3; do
    timeout "$LIMIT" $CLIENT_PIN mvn -q -B gatling:test -Dsimulation=BulkInsert -DbatchSizes="$2" -Dthreads="$THREADS" \
      -Ddocs="$3" -Dsingle=false -Dcouchdb.url="$URL" ${COUCHDB_USER:+-Dcouchdb.user="$COUCHDB_USER"} \
      "$ONLY_GIVEN_TARGETS" ${5:-} >"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
    # The run folder named in this run's own output: other runs may be writing to reports/ meanwhile.
    report=$(sed -n 's|^couchbench: summary: \(.*\)/summary.html$|\1|p' "$log" | tail -1)
    [ -n "$report" ] && break
    echo "  no summary written: $(grep -m1 'summary' "$log" || true); running again" >&2
    cp "$log" "$log.$attempt"
  done
  [ -n "$report" ] || { echo "BulkInsert wrote no summary three times; see $log" >&2; exit 1; }
  # One CSV like the minimal clients': the step table's docs/s beside the CPU table's figures.
  awk -F, 'FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; if (file == 2) print "B,T,docs/s," \
           "client CPU (s),client JIT (s),server CPU (s)"; next }
    file == 1 { rate[$col[1, "B"], $col[1, "T"]] = $col[1, "docs/s"]; next }
    { print $col[2, "B"] "," $col[2, "T"] "," rate[$col[2, "B"], $col[2, "T"]] "," $col[2, "client CPU (s)"] "," \
        $col[2, "client JIT (s)"] "," $col[2, "server CPU (s)"] }' \
    "$report/docs-per-second-by-step.csv" "$report/cpu-by-step.csv" >"$4"
}

run() { # round B N client
  local csv=$out/$4-$1-b$2.csv capture=
  if [ "$WIRE" = 1 ]; then
    tcpdump -i lo -n -U -s 96 -w "$out/$4-$1-b$2.pcap" "tcp port $PORT" 2>/dev/null &
    capture=$!
    sleep 1 # tcpdump attaches asynchronously
  fi
  case $4 in
    BulkInsert) bulkinsert "$1" "$2" "$3" "$csv" ;;
    baseline) (cd "$BASELINE" && bulkinsert "$1" "$2" "$3" "$csv" "$BASELINE_FLAGS") ;;
    python) SERVER_PID=$server_pid timeout "$LIMIT" $CLIENT_PIN python3 bench/bulk_baseline.py "$URL" "$2" "$THREADS" "$3" >"$csv" ;;
    *) SERVER_PID=$server_pid timeout "$LIMIT" $CLIENT_PIN java -cp "$classpath" couchbench.bulkinsert.BulkBaseline \
         "$URL" "$2" "$THREADS" "$3" "$4" >"$csv" ;;
  esac
  [ "$1" -le 0 ] || collect "$1" "$4" "$csv"
  if [ -n "$capture" ]; then
    sleep 1
    kill "$capture"
    wait "$capture" || true
    # A step's connections are those that sent exactly its requests per user, ceil(N / (B T)).
    tcpdump -r "$out/$4-$1-b$2.pcap" -n -tt 2>/dev/null | awk -v port="$PORT" -f bench/gaps.awk |
      awk -F, -v r="$1" -v c="$4" -v b="$2" -v n="$3" -v threads="$THREADS" 'NR == 1 { split(threads, ts, ","); next }
        { for (i in ts) if ($1 == int((n + b * ts[i] - 1) / (b * ts[i]))) print r "," c "," b "," ts[i] "," $1 "," $2 "," $3 }' >>"$wire"
    rm -f "$out/$4-$1-b$2.pcap"
  fi
}

started=$SECONDS
read -ra clients <<<"$CLIENTS"
for round in $(seq $((1 - WARMUP)) "$ROUNDS"); do
  for step in $STEPS; do
    b=${step%%:*}
    n=${step##*:}
    if [ "$round" -le 0 ]; then echo "warm-up round, B=$b, counted nowhere"
    else echo "round $round/$ROUNDS, B=$b, $n docs per step ($((SECONDS - started)) s so far)"; fi
    # Alternate the order, so that no client always runs first on a warming or cooling machine.
    if [ $((round % 2)) -eq 1 ]; then order=("${clients[@]}"); else order=(); for c in "${clients[@]}"; do order=("$c" "${order[@]}"); done; fi
    for client in "${order[@]}"; do run "$round" "$b" "$n" "$client"; done
  done
done

echo
echo "docs/s: median of $ROUNDS rounds. BulkInsert / best: BulkInsert over the best minimal client of the"
echo "same round (its clients ran back to back), the median of the rounds' ratios and their range."
echo "CPU: milliseconds per request in the step, medians of the rounds: the client's (of it JIT) and the server's."
awk -F, -v clients="$CLIENTS" -v steps="$STEPS" -f bench/stats.awk -f /dev/stdin "$results" <<'AWK'
  NR > 1 { key = $3 "," $4; rate[$2, key] = rate[$2, key] " " $5; byRound[$1, $2, key] = $5
           split(steps, s, " "); for (i in s) { split(s[i], bn, ":"); if (bn[1] == $3) docs = bn[2] }
           requests = int((docs + $3 * $4 - 1) / ($3 * $4)) * $4
           if ($6 != "") cpu[$2, key] = cpu[$2, key] " " 1000 * $6 / requests
           if ($7 != "") jit[$2, key] = jit[$2, key] " " 1000 * $7 / requests
           if ($8 != "") srv[$2, key] = srv[$2, key] " " 1000 * $8 / requests
           if (!(key in seen)) { seen[key] = 1; keys[++k] = key }; rounds[$1] = 1 }
  function ms(list) { return list == "" ? "n/a" : sprintf("%.3f", median(list)) }
  END {
    n = split(clients, c, " ")
    baseline = 0; for (j = 1; j <= n; j++) if (c[j] == "baseline") baseline = 1
    printf "%6s %3s", "B", "T"; for (j = 1; j <= n; j++) printf " %11s", c[j]; printf " %13s %10s", "BulkInsert/best", "range"
    if (baseline) printf " %19s %10s", "BulkInsert/baseline", "range"; printf "\n"
    for (i = 1; i <= k; i++) {
      key = keys[i]; split(key, bt, ","); ratios = ""
      printf "%6d %3d", bt[1], bt[2]; for (j = 1; j <= n; j++) printf " %11.0f", median(rate[c[j], key])
      for (r in rounds) {
        best = 0; for (j = 1; j <= n; j++) if (c[j] != "BulkInsert" && c[j] != "baseline" && byRound[r, c[j], key] > best) best = byRound[r, c[j], key]
        if (best > 0 && byRound[r, "BulkInsert", key] != "") ratios = ratios " " byRound[r, "BulkInsert", key] / best
        if (byRound[r, "baseline", key] > 0 && byRound[r, "BulkInsert", key] != "") againstBaseline = againstBaseline " " byRound[r, "BulkInsert", key] / byRound[r, "baseline", key]
      }
      if (ratios == "") printf " %15s %10s", "n/a", "" ; else printf " %15.2f %10s", median(ratios), spread(ratios)
      if (baseline) { if (againstBaseline == "") printf " %19s %10s", "n/a", ""; else printf " %19.2f %10s", median(againstBaseline), spread(againstBaseline) }
      printf "\n"; againstBaseline = ""
    }
    print ""
    printf "%6s %3s %-10s %12s %12s %12s\n", "B", "T", "client", "client ms", "of it JIT", "server ms"
    for (i = 1; i <= k; i++) for (j = 1; j <= n; j++) {
      key = keys[i]; split(key, bt, ",")
      printf "%6d %3d %-10s %12s %12s %12s\n", bt[1], bt[2], c[j], ms(cpu[c[j], key]), ms(jit[c[j], key]), ms(srv[c[j], key])
    }
  }
AWK
if [ "$WIRE" = 1 ]; then
  echo
  echo "On the wire, ms per request (medians over the step's connections and rounds): the server's time, and the"
  echo "client's between a reply's last byte and its next request's first byte."
  # Sorted by B, then T, keeping the clients' order within each step.
  { head -1 "$wire"; tail -n +2 "$wire" | sort -s -t, -k3,3n -k4,4n; } >"$out/wire-sorted.csv"
  awk -F, -f bench/stats.awk -f /dev/stdin "$out/wire-sorted.csv" <<'AWK'
    NR > 1 { key = $3 "," $4 "," $2; if (!(key in seen)) { seen[key] = 1; keys[++k] = key }
             server[key] = server[key] " " $6; client[key] = client[key] " " $7 }
    END { printf "%6s %3s %-10s %10s %10s\n", "B", "T", "client", "server ms", "client ms"
          for (i = 1; i <= k; i++) { split(keys[i], f, ","); printf "%6d %3d %-10s %10.3f %10.3f\n", f[1], f[2], f[3],
            median(server[keys[i]]), median(client[keys[i]]) } }
AWK
fi
echo
echo "every round's figures: $results ($((SECONDS - started)) s in all)"
