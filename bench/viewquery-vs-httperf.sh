#!/usr/bin/env bash
# Benchmark, not a test: ViewQuery against httperf (Debian's package) running seed 001's command,
# scaled down in time, against one pouchdb-server on 127.0.0.1 in one session. Part 1: both at the
# seed's 150 conn/s, rounds interleaved and their order alternating; reply and connection times and
# their ratios. Part 2: each tool steps its rate up until a step has an error, a non-2xx reply or a
# reply rate below 95% of the rate asked for. See docs/viewquery.md.
#
#   bench/viewquery-vs-httperf.sh
#   ROUNDS=3 SECONDS_AT_150=30 RATES="150 300 600 1000 1500 2000" STEP_SECONDS=10 PORT=5991 bench/viewquery-vs-httperf.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-2}
SECONDS_AT_150=${SECONDS_AT_150:-20}
RATES=${RATES:-"150 300 600 1000 1500 2000"}
STEP_SECONDS=${STEP_SECONDS:-10}
PORT=${PORT:-} # empty: a free one
URI=/todo/_design/todo/_view/list

command -v httperf >/dev/null || { echo "httperf is not installed: apt-get install -y httperf" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_start_pouchdb viewquery-vs-httperf "$PORT"
bench_classpath

results=$out/results.csv # part,round,tool,rate,conns,replies,2xx,errors,reply rate,reply avg ms,reply median ms,conn median ms
echo "part,round,tool,rate,conns,replies,2xx,errors,reply rate,reply avg ms,reply median ms,conn median ms" >"$results"

# ViewQuery as the Gatling plugin runs it (same opens, same main class), minus Maven's start-up.
viewquery() { # part round rate seconds
  local conns=$(($3 * $4)) log=$out/viewquery-$1-$2-$3.log folder
  folder=$(bench_gatling ViewQuery "$log" -Dcouchdb.url="$URL" -Drate="$3" -Dconns="$conns")
  [ -n "$folder" ] || { tail -20 "$log" >&2; exit 1; }
  awk -F, -v p="$1" -v r="$2" -v rate="$3" '
    { v[$1] = $2 }
    END { errors = 0; for (k in v) if (k ~ /^errors /) errors += v[k]
          print p "," r ",ViewQuery," rate "," v["connections"] "," v["replies"] "," v["status 2xx"] "," errors \
            "," v["reply rate avg"] "," v["reply time avg ms"] "," v["reply time median ms"] "," v["connection time median ms"] }' \
    "$folder/figures.csv" >>"$results"
}

httperf_run() { # part round rate seconds
  local conns=$(($3 * $4)) log=$out/httperf-$1-$2-$3.log
  timeout "$LIMIT" httperf --client=0/1 --server=127.0.0.1 --port="$PORT" --uri="$URI" --rate="$3" \
    --send-buffer=4096 --recv-buffer=16384 --num-conns="$conns" --num-calls=1 --timeout=10 >"$log" 2>&1 || true
  awk -v p="$1" -v r="$2" -v rate="$3" '
    /^Total:/ { conns = $3; replies = $7 }
    /^Connection time \[ms\]: min/ { median = $11 }
    /^Reply rate/ { replyRate = $7 }
    /^Reply time/ { reply = $5 + $7 }
    /^Reply status/ { split($4, s, "="); ok = s[2] }
    /^Errors: total/ { errors = $3 }
    END { print p "," r ",httperf," rate "," conns "," replies "," ok "," errors "," replyRate "," reply ",," median }' \
    "$log" >>"$results"
}

started=$SECONDS
echo "setup and index build: one short ViewQuery run"
viewquery warmup 0 20 2

for round in $(seq "$ROUNDS"); do
  echo "part 1, round $round/$ROUNDS: 150 conn/s for $SECONDS_AT_150 s each ($((SECONDS - started)) s so far)"
  if [ $((round % 2)) -eq 1 ]; then
    httperf_run same "$round" 150 "$SECONDS_AT_150"; viewquery same "$round" 150 "$SECONDS_AT_150"
  else
    viewquery same "$round" 150 "$SECONDS_AT_150"; httperf_run same "$round" 150 "$SECONDS_AT_150"
  fi
done

# A rate is sustained when every connection got a 2xx reply, no error, at >= 95% of the rate asked.
sustained() { # tool rate
  awk -F, -v t="$1" -v rate="$2" '$1 == "step" && $3 == t && $4 == rate {
      ok = ($6 == $5 && $7 == $5 && $8 == 0 && $9 >= 0.95 * rate) }
    END { exit ok ? 0 : 1 }' "$results"
}
for tool in httperf viewquery; do
  for rate in $RATES; do
    echo "part 2, $tool at $rate conn/s for $STEP_SECONDS s ($((SECONDS - started)) s so far)"
    # Let the previous step's TIME_WAIT sockets expire a little: 2000 conn/s uses a third of the ports.
    sleep 5
    if [ "$tool" = httperf ]; then httperf_run step 1 "$rate" "$STEP_SECONDS"; else viewquery step 1 "$rate" "$STEP_SECONDS"; fi
    sustained "$([ "$tool" = httperf ] && echo httperf || echo ViewQuery)" "$rate" || break
  done
done

echo
echo "part 1: 150 conn/s, $SECONDS_AT_150 s per run, $ROUNDS rounds (reply time = response + transfer for httperf)"
awk -F, '$1 == "same" { n[$3]++; avg[$3] += $10; conn[$3] = conn[$3] " " $12; med[$3] = med[$3] " " $11
                        printf "  round %s %-9s replies %s 2xx %s errors %s reply rate %s reply avg %s ms median %s ms conn median %s ms\n", $2, $3, $6, $7, $8, $9, $10, $11, $12 }
  END { a = avg["ViewQuery"] / n["ViewQuery"]; b = avg["httperf"] / n["httperf"]
        printf "  mean of the rounds: reply time avg ViewQuery %.2f ms, httperf %.2f ms, ratio %.2f\n", a, b, a / b }' "$results"
echo "part 2: steps (a tool stops at its first step that is not sustained)"
awk -F, '$1 == "step" { printf "  %-9s %5s conn/s: replies %s/%s 2xx %s errors %s reply rate %s reply avg %s ms\n", $3, $4, $6, $5, $7, $8, $9, $10 }' "$results"
echo
echo "every run's figures: $results, logs in $out ($((SECONDS - started)) s in all)"
