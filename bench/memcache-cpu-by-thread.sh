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
#   CONSOLES="couchbench gatling gatling-light" ROUNDS=5 SIMULATIONS=MemGet bench/memcache-cpu-by-thread.sh
#   PROTOCOLS="text meta" PIPELINE=16 ROUNDS=3 bench/memcache-cpu-by-thread.sh
#
# CONSOLES: this build once per console, interleaved within each round: couchbench (Gatling's console data writer
# left out, the default), gatling (-Dconsole=gatling: the writer back, every population every 5 s), gatling-light
# (the writer with gatling.data.console.light=true). At the end, each one's median CPU per request over the rounds,
# with the smallest and largest, in all and by thread group. PROTOCOLS: the same with each -Dprotocol (text, meta)
# instead of each console. PIPELINE: -Dpipeline of every run (1 by default).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-1}
USERS=${USERS:-16}
BASELINE=${BASELINE:-}
CONSOLES=${CONSOLES:-}
PROTOCOLS=${PROTOCOLS:-}
PIPELINE=${PIPELINE:-1}
SIMULATIONS=${SIMULATIONS:-MemGet MemSet}
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

console_options() { # CONSOLE: the -D options that give a run that console
  case $1 in
    couchbench) echo -Dconsole=couchbench ;;
    gatling) echo -Dconsole=gatling -Dcouchbench.gatlingConsole=console ;;
    gatling-light) echo -Dconsole=gatling -Dcouchbench.gatlingConsole=console -Dgatling.data.console.light=true ;;
    *) echo "unknown console $1 (couchbench, gatling, gatling-light)" >&2; exit 1 ;;
  esac
}

measure() { # BUILD_DIR NAME SIMULATION [-D options...]
  local log=$out/$2-$3.log pid jvm before after
  local build=$1 name=$2 simulation=$3
  shift 3
  timeout "$LIMIT" $CLIENT_PIN java --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
    -Xmx1G -cp "$build/target/classes:$build/target/test-classes:$deps" "$ONLY_GIVEN_TARGETS" "$@" -Dmemcache.servers="$SERVER" \
    -Dusers="$USERS" -Dpipeline="$PIPELINE" -Dduration=25 -Dwarmup=10 -DkeyFile="$out/keys.csv" -Dcouchbench.reports="$out/reports" \
    io.gatling.app.Gatling --simulation "$simulation" --results-folder "$out/reports" >"$log" 2>&1 &
  pid=$!
  sleep 22 # the JVM's start, the 10 s warm-up, and the first seconds of the load
  jvm=$(pgrep -P $pid -f io.gatling.app.Gatling || echo $pid) # under timeout (and taskset, which execs)
  before=$(threads "$jvm"; echo "requests $(($(server_stat cmd_get) + $(server_stat cmd_set))) 0 0")
  sleep 8
  after=$(threads "$jvm"; echo "requests $(($(server_stat cmd_get) + $(server_stat cmd_set))) 0 0")
  wait $pid || true
  # Ticks are 1/100 s (CLK_TCK): us per request = ticks * 10^4 / requests.
  awk -v name="$name $simulation" 'FNR == 1 { file++ } { sign = file == 1 ? -1 : 1; u[$1] += sign * $2; k[$1] += sign * $3; v[$1] += sign * $4 }
    END {
      n = u["requests"]; printf "%s: %d requests in 8 s (%d/s)\n", name, n, n / 8
      for (t in u) if (t != "requests") { all += u[t] + k[t] }
      printf "  %-24s user+system %5.2f us  per request\n", "all threads", 1e4 * all / n
      for (t in u) if (t != "requests" && (u[t] + k[t] > 0 || v[t] > 100))
        printf "  %-24s user %5.2f us  system %5.2f us  voluntary switches %.3f  per request\n", t, 1e4 * u[t] / n, 1e4 * k[t] / n, v[t] / n
    }' <(echo "$before") <(echo "$after")
}

# The median of each console's rounds, with the smallest and largest: "all threads" first, then each thread group.
spread() {
  awk '/^[^ ].*: [0-9]+ requests in 8 s/ { run = $1; sub(/-[0-9]+$/, "", run); run = run " " $2; sub(/:$/, "", run); rate[run] = rate[run] " " $3 / 8; next }
    /^  all threads/ { us[run " all threads"] = us[run " all threads"] " " $4; next }
    /^  / { us[run " " $1] = us[run " " $1] " " ($3 + $6) }
    function median(list,   v, n, i, j, t) {
      n = split(list, v, " ")
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
      return sprintf("%.2f (%.2f-%.2f, %d rounds)", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, v[1], v[n], n)
    }
    END {
      for (r in rate) printf "%s: requests/s %s\n", r, median(rate[r])
      for (k in us) printf "%s: us CPU per request %s\n", k, median(us[k])
    }' "$1" | sort
}

builds="this"
[ -n "$BASELINE" ] && builds="baseline this"
[ -n "$CONSOLES" ] && builds=$CONSOLES
[ -n "$PROTOCOLS" ] && builds=$PROTOCOLS
measure . warm-up MemSet >/dev/null # MemGet needs the keys of a MemSet
for round in $(seq "$ROUNDS"); do
  for simulation in $SIMULATIONS; do
    for build in $builds; do
      if [ -n "$PROTOCOLS" ]; then
        measure . "$build-$round" "$simulation" -Dprotocol="$build"
      elif [ -n "$CONSOLES" ]; then
        # shellcheck disable=SC2046 # the options are words
        measure . "$build-$round" "$simulation" $(console_options "$build")
      elif [ "$build" = this ]; then measure . "this-$round" "$simulation"; else measure "$BASELINE" "baseline-$round" "$simulation"; fi
    done
  done
done | tee "$out/rounds.txt"
echo "medians over the rounds:"
spread "$out/rounds.txt"
