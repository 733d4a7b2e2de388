#!/usr/bin/env bash
# Benchmark, not a test: where ViewQuery's milliseconds go, against httperf's, as the wire sees them.
# Both tools run seed 001's load (a new connection per request, RATE conn/s) against one
# pouchdb-server on 127.0.0.1, rounds interleaved with alternating order, each run captured with
# tcpdump on the loopback interface. Per connection (bench/wire.awk): connect (SYN to the request's
# first byte), server (request's first byte to the reply's last), close (reply's last byte to the
# client's FIN) and total; the medians of each run, and ViewQuery's over httperf's. Needs root for
# tcpdump. See docs/viewquery.md.
#
#   bench/viewquery-wire.sh
#   ROUNDS=5 SECONDS_PER_RUN=30 RATE=150 PORT=5995 bench/viewquery-wire.sh
#   SERVER_CPUS=1 CLIENT_CPUS=0 bench/viewquery-wire.sh      # server and load generators on separate cores
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-20}
RATE=${RATE:-150}
PORT=${PORT:-} # empty: a free one

for tool in httperf tcpdump; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed: apt-get install -y $tool" >&2; exit 1; }
done
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_start_pouchdb viewquery-wire "$PORT"
bench_classpath
[ -n "$(bench_gatling ViewQuery "$out/setup.log" -Dcouchdb.url="$URL" -Drate=20 -Dconns=40)" ] \
  || { tail -20 "$out/setup.log" >&2; exit 1; }
conns=$((RATE * SECONDS_PER_RUN))

captured() { # name command...: runs the command with the loopback captured, then the per-connection figures
  local name=$1 capture
  shift
  tcpdump -i lo -n -U -w "$out/$name.pcap" "tcp port $PORT" 2>"$out/$name.tcpdump.log" &
  capture=$!
  sleep 1 # tcpdump attaches asynchronously
  "$@" >"$out/$name.log" 2>&1 || true
  sleep 1
  kill "$capture"
  wait "$capture" || true
  tcpdump -r "$out/$name.pcap" -n -tt 2>/dev/null | awk -v port="$PORT" -f bench/wire.awk >"$out/$name.csv"
}

median() { # csv column
  tail -n +2 "$1" | cut -d, -f"$2" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

results=$out/results.csv
echo "round,tool,connections,connect ms,server ms,close ms,total ms" >"$results"
run() { # round tool
  local name=$2-$1
  if [ "$2" = httperf ]; then
    captured "$name" timeout "$LIMIT" $CLIENT_PIN httperf --client=0/1 --server=127.0.0.1 --port="$PORT" \
      --uri=/todo/_design/todo/_view/list --rate="$RATE" --num-conns="$conns" --num-calls=1 --timeout=10
  else
    captured "$name" bench_gatling ViewQuery /dev/null -Dcouchdb.url="$URL" -Drate="$RATE" -Dconns="$conns"
  fi
  local csv=$out/$name.csv lines
  lines=$(wc -l <"$csv")
  echo "$1,$2,$((lines - 1)),$(median "$csv" 1),$(median "$csv" 2),$(median "$csv" 3),$(median "$csv" 4)" >>"$results"
}

for round in $(seq "$ROUNDS"); do
  if [ $((round % 2)) -eq 1 ]; then run "$round" httperf; run "$round" ViewQuery; else run "$round" ViewQuery; run "$round" httperf; fi
  echo "round $round of $ROUNDS done"
done
column -s, -t "$results"
awk -F, 'NR > 1 { for (i = 4; i <= 7; i++) sum[$2, i] += $i; n[$2]++ }
  END { printf "mean of the medians of the rounds, ViewQuery / httperf:"
        split("connect server close total", label, " ")
        for (i = 4; i <= 7; i++) printf " %s %.2f", label[i - 3], (sum["ViewQuery", i] / n["ViewQuery"]) / (sum["httperf", i] / n["httperf"])
        print "" }' "$results"
echo "captures and logs: $out"
