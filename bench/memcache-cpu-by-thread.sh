#!/usr/bin/env bash
# Benchmark, not a test: couchbench's CPU and voluntary context switches per memcache request, by
# thread group (Gatling's event loops "gatling-1-N", its actor pool "pool-1-thread-N", the JIT, GC),
# from /proc/<pid>/task/*/{stat,status} over an 8 s window in the steady part of a MemGet and a
# MemSet run, with the requests counted by memcached over the same window. CPU per request is far
# less noisy on a shared machine than ops/s. With BASELINE=DIR (another checkout, built), its build
# runs beside this one, in turn, so that a change can be judged by what it costs per request.
#
#   bench/memcache-cpu-by-thread.sh
#   BASELINE=/tmp/before ROUNDS=2 bench/memcache-cpu-by-thread.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-1}
USERS=${USERS:-16}
BASELINE=${BASELINE:-}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_start_memcached memcache-cpu-by-thread
bench_classpath
port=${SERVER##*:}
deps=${classpath#target/classes:target/test-classes:}

server_stat() { # NAME
  timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0"; printf "stats\r\nquit\r\n" >&3; cat <&3' "$port" |
    tr -d '\r' | awk -v name="$1" '$2 == name { print $3 }'
}

# Each thread: its name without the trailing number, user and system ticks, voluntary switches.
threads() {
  for task in /proc/"$1"/task/*; do
    printf '%s %s %s\n' "$(sed 's/[-#]*[0-9]*$//; s/ /_/g' "$task/comm")" \
      "$(sed 's/.*) //' "$task/stat" | awk '{ print $12, $13 }')" "$(awk '/^voluntary_ctxt/ { print $2 }' "$task/status")"
  done
}

measure() { # BUILD_DIR NAME SIMULATION
  local log=$out/$2-$3.log pid jvm before after
  timeout "$LIMIT" $CLIENT_PIN java --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
    -Xmx1G -cp "$1/target/classes:$1/target/test-classes:$deps" "$ONLY_GIVEN_TARGETS" -Dmemcache.servers="$SERVER" \
    -Dusers="$USERS" -Dduration=25 -Dwarmup=10 -DkeyFile="$out/keys.csv" -Dcouchbench.reports="$out/reports" \
    io.gatling.app.Gatling --simulation "$3" --results-folder "$out/reports" >"$log" 2>&1 &
  pid=$!
  sleep 22 # the JVM's start, the 10 s warm-up, and the first seconds of the load
  jvm=$(pgrep -P $pid -f io.gatling.app.Gatling || echo $pid) # under timeout (and taskset, which execs)
  before=$(threads "$jvm"; echo "requests $(($(server_stat cmd_get) + $(server_stat cmd_set))) 0 0")
  sleep 8
  after=$(threads "$jvm"; echo "requests $(($(server_stat cmd_get) + $(server_stat cmd_set))) 0 0")
  wait $pid || true
  # Ticks are 1/100 s (CLK_TCK): us per request = ticks * 10^4 / requests.
  awk -v name="$2 $3" 'FNR == 1 { file++ } { sign = file == 1 ? -1 : 1; u[$1] += sign * $2; k[$1] += sign * $3; v[$1] += sign * $4 }
    END {
      n = u["requests"]; printf "%s: %d requests in 8 s (%d/s)\n", name, n, n / 8
      for (t in u) if (t != "requests" && (u[t] + k[t] > 0 || v[t] > 100))
        printf "  %-24s user %5.2f us  system %5.2f us  voluntary switches %.3f  per request\n", t, 1e4 * u[t] / n, 1e4 * k[t] / n, v[t] / n
    }' <(echo "$before") <(echo "$after")
}

builds="this"
[ -n "$BASELINE" ] && builds="baseline this"
measure . warm-up MemSet >/dev/null # MemGet needs the keys of a MemSet
for round in $(seq "$ROUNDS"); do
  for simulation in MemGet MemSet; do
    for build in $builds; do
      if [ "$build" = this ]; then measure . "this-$round" "$simulation"; else measure "$BASELINE" "baseline-$round" "$simulation"; fi
    done
  done
done
