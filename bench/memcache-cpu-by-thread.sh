#!/usr/bin/env bash
# Benchmark, not a test: CPU and voluntary context switches per memcache request, by thread group
# (Gatling's event loops "gatling-1-N", its actor pool "pool-1-thread-N", the JIT, GC), from
# /proc/<pid>/task/*/{stat,status} over an 8 s window in the steady part of a MemGet and a MemSet run,
# with the requests counted by memcached over the same window. CPU per request is far less noisy on a
# shared machine than ops/s. The minimal clients run in the same rounds, measured the same way:
# memaslap (pipeline 1) or the bench's pipelining client PipelinedBaseline (PIPELINE above 1), and
# each round's couchbench figure is divided by theirs. With BASELINE=DIR (another checkout, built),
# its build runs beside this one, in turn, so that a change can be judged by what it costs per request. Gatling
# runs as the pom runs MemGet and MemSet: on io_uring (BASELINE=. BASELINE_FLAGS=-Dgatling.netty.useIoUring=false
# puts epoll beside it).
#
#   bench/memcache-cpu-by-thread.sh
#   ROUNDS=3 PIPELINE=16 bench/memcache-cpu-by-thread.sh
#   BASELINE=/tmp/before ROUNDS=2 bench/memcache-cpu-by-thread.sh
#   BASELINE=. BASELINE_FLAGS=-XX:ActiveProcessorCount=1 MINIMAL=0 bench/memcache-cpu-by-thread.sh
#   SERVER_CPUS=1 CLIENT_CPUS=0 BASELINE=. BASELINE_FLAGS=-Dgatling.netty.useIoUring=false ROUNDS=2 bench/memcache-cpu-by-thread.sh
#   CONSOLES="couchbench gatling gatling-light" ROUNDS=5 SIMULATIONS=MemGet bench/memcache-cpu-by-thread.sh
#   PROTOCOLS="text meta" PIPELINE=16 ROUNDS=3 bench/memcache-cpu-by-thread.sh
#   PROFILE=1 ROUNDS=0 bench/memcache-cpu-by-thread.sh   # flame graphs only
#   TLS=1 ROUNDS=3 bench/memcache-cpu-by-thread.sh       # plain text beside TLS (-Dmemcache.tls=true)
#
# CONSOLES: this build once per console, interleaved within each round: couchbench (Gatling's console data writer
# left out, the default), gatling (-Dconsole=gatling: the writer back, every population every 5 s), gatling-light
# (the writer with gatling.data.console.light=true). At the end, each one's median CPU per request over the rounds,
# with the smallest and largest, in all and by thread group. PROTOCOLS: the same with each -Dprotocol (text, meta)
# instead of each console. PIPELINE: -Dpipeline of every run (1 by default). MINIMAL=0 leaves the minimal
# clients out. PROFILE=1: after the rounds, one more run of each simulation under async-profiler (CPU samples
# over the same window, with kernel frames; PROFILE_EVENT=itimer where perf events are not allowed), written as
# flame graphs (profile-*.html) and collapsed stacks; these runs are not in the figures. TLS=1: memcached serves
# TLS on one port and plain text on another, and each round runs this build on both ("plain", "tls": the same
# requests, with TLS's encryption and records on every request; each run's users handshake as they open their
# connections, seconds before the measured window); memaslap has no TLS and stays in plain text.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-1}
USERS=${USERS:-16}
BASELINE=${BASELINE:-}
CONSOLES=${CONSOLES:-}
PROTOCOLS=${PROTOCOLS:-}
PIPELINE=${PIPELINE:-1}
SIMULATIONS=${SIMULATIONS:-MemGet MemSet}
MINIMAL=${MINIMAL:-1}
JVM_FLAGS=${JVM_FLAGS:-} # couchbench's JVM flags; BASELINE_FLAGS (if set) those of the baseline's runs
PROFILE=${PROFILE:-0}
PROFILE_EVENT=${PROFILE_EVENT:-cpu}
TLS=${TLS:-0}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_start_memcached memcache-cpu-by-thread
bench_classpath
port=${SERVER##*:}
deps=${classpath#target/classes:target/test-classes:}

server_requests() { # the server's cmd_get + cmd_set, from one stats reply
  timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0"; printf "stats\r\nquit\r\n" >&3; cat <&3' "$port" |
    tr -d '\r' | awk '$2 == "cmd_get" || $2 == "cmd_set" { n += $3 } END { print n + 0 }'
}

console_options() { # CONSOLE: the -D options that give a run that console
  case $1 in
    couchbench) echo -Dconsole=couchbench ;;
    gatling) echo -Dconsole=gatling -Dcouchbench.gatlingConsole=console ;;
    gatling-light) echo -Dconsole=gatling -Dcouchbench.gatlingConsole=console -Dgatling.data.console.light=true ;;
    *) echo "unknown console $1 (couchbench, gatling, gatling-light)" >&2; exit 1 ;;
  esac
}

# window PID NAME LEAD PATTERN: the CPU of PID's threads and the server's requests over 8 s, LEAD seconds after PID
# started; PATTERN finds the client among PID's children (under timeout, and taskset, which execs).
window() {
  local pid=$1 name=$2 before after proc
  sleep "$3"
  proc=$(pgrep -P "$pid" -f "$4" | head -1 || true)
  proc=${proc:-$pid}
  before=$(bench_threads "$proc"; echo "requests - $(server_requests) 0 0")
  sleep 8
  after=$(bench_threads "$proc"; echo "requests - $(server_requests) 0 0")
  wait "$pid" || true
  bench_per_request "$name" 8 "$before" "$after"
}

measure() { # BUILD_DIR NAME SIMULATION [-D options...]: one couchbench run, its window 22 s after the start
  local build=$1 name=$2 simulation=$3 main=io.gatling.app.Gatling
  shift 3
  [ "${PROFILED:-}" ] && main=couchbench.ProfiledGatling
  local flags=$JVM_FLAGS
  [ "$name" != "${name#baseline}" ] && flags=${BASELINE_FLAGS-$JVM_FLAGS}
  # shellcheck disable=SC2086,SC2046 # the flags are words
  timeout "$LIMIT" $CLIENT_PIN java $(bench_loadgen_flags "$simulation") $flags --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
    -Xmx1G -cp "$build/target/classes:$build/target/test-classes:$deps" "$ONLY_GIVEN_TARGETS" "$@" -Dmemcache.servers="${RUN_SERVER:-$SERVER}" \
    -Dusers="$USERS" -Dpipeline="$PIPELINE" -Dduration=25 -Dwarmup=10 -DkeyFile="$out/keys.csv" -Dcouchbench.reports="$out/reports" \
    -Dprofile.from=22 -Dprofile.seconds=8 -Dprofile.out="$out/profile-$simulation" -Dprofile.event="$PROFILE_EVENT" \
    "$main" --simulation "$simulation" --results-folder "$out/reports" >"$out/$name-$simulation.log" 2>&1 &
  # the JVM's start, the 10 s warm-up, and the first seconds of the load
  window $! "$name $simulation" 22 "$main"
}

minimal() { # NAME SIMULATION: memaslap, or the pipelining client above pipeline 1, doing the simulation's command
  local name=$1 op=get cfg=$out/memaslap.cfg
  [ "$2" = MemSet ] && op=set
  if [ "$PIPELINE" -gt 1 ]; then
    timeout "$LIMIT" $CLIENT_PIN java -cp "$classpath" couchbench.memcache.PipelinedBaseline "$SERVER" "$op" "$USERS" \
      "$PIPELINE" 25 100 >"$out/$name-$2.log" 2>&1 &
    window $! "$name $2" 12 PipelinedBaseline
  else
    # memaslap's key and value sizes as couchbench's: 32-byte keys (MD5 hex), 100-byte values; gets of keys it set first.
    printf 'key\n32 32 1\nvalue\n100 100 1\ncmd\n0 %s\n1 %s\n' "$([ $op = set ] && echo 1.0 || echo 0)" \
      "$([ $op = get ] && echo 1.0 || echo 0)" >"$cfg"
    timeout "$LIMIT" $CLIENT_PIN "$memaslap" -s "$SERVER" -T 2 -c "$USERS" -t 25s -F "$cfg" >"$out/$name-$2.log" 2>&1 &
    window $! "$name $2" 10 memcaslap
  fi
}

builds="this"
[ -n "$BASELINE" ] && builds="baseline this"
[ -n "$CONSOLES" ] && builds=$CONSOLES
[ -n "$PROTOCOLS" ] && builds=$PROTOCOLS
[ "$TLS" = 1 ] && builds="plain tls"
minimal_name=memaslap
[ "$PIPELINE" -gt 1 ] && minimal_name=pipelined
if [ "$MINIMAL" = 1 ]; then
  memaslap=$(command -v memcaslap || command -v memaslap || true)
  [ -n "$memaslap" ] || [ "$PIPELINE" -gt 1 ] || { echo "memaslap is not installed: apt-get install -y libmemcached-tools" >&2; exit 1; }
  builds="$builds $minimal_name"
fi
measure . warm-up MemSet >/dev/null # MemGet needs the keys of a MemSet
for round in $(seq "$ROUNDS"); do
  order=$builds # alternating, so that no client always runs first on a warming or cooling machine
  [ $((round % 2)) -eq 0 ] && order=$(echo "$builds" | tr ' ' '\n' | tac | tr '\n' ' ')
  for simulation in $SIMULATIONS; do
    for build in $order; do
      if [ "$build" = "$minimal_name" ]; then
        minimal "$build-$round" "$simulation"
      elif [ "$build" = tls ]; then
        RUN_SERVER=$TLS_SERVER measure . "tls-$round" "$simulation" -Dmemcache.tls=true -Dmemcache.caFile="$TLS_CERT"
      elif [ "$build" = plain ]; then
        measure . "plain-$round" "$simulation"
      elif [ -n "$PROTOCOLS" ]; then
        measure . "$build-$round" "$simulation" -Dprotocol="$build"
      elif [ -n "$CONSOLES" ]; then
        # shellcheck disable=SC2046 # the options are words
        measure . "$build-$round" "$simulation" $(console_options "$build")
      elif [ "$build" = this ]; then measure . "this-$round" "$simulation"; else measure "$BASELINE" "baseline-$round" "$simulation"; fi
    done
  done
done | tee "$out/rounds.txt"
echo "medians over the rounds:"
[ "$MINIMAL" = 1 ] && MINIMAL_CLIENT=$minimal_name
MINIMAL_CLIENT=${MINIMAL_CLIENT:-} bench_medians "$out/rounds.txt"
if [ "$PROFILE" = 1 ]; then
  for simulation in $SIMULATIONS; do PROFILED=1 measure . profiled "$simulation" >/dev/null; done
  for profile in "$out"/profile-*.collapsed; do awk -f bench/profile-summary.awk "$profile" >"${profile%.collapsed}.txt"; done
  echo "their sums (bench/profile-summary.awk): $(ls "$out"/profile-*.txt | tr '\n' ' ')"
  echo "flame graphs (not in the figures above): $(ls "$out"/profile-*.html | tr '\n' ' ')"
fi
