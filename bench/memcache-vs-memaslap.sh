#!/usr/bin/env bash
# Benchmark, not a test: MemSet and MemGet against memaslap (Debian's libmemcached-tools, as
# memcaslap) with the same connections, value size and command (all sets, or all gets of keys set
# before), on one memcached started here on a free loopback port (or SERVER=host:port, e.g. a
# MemcacheDB on 127.0.0.1:21201). Rounds are interleaved and their order alternates, so that noise
# from a shared machine falls on both alike. Prints ops/s and p99 per round and the median ratios.
# With PIPELINE=P, couchbench keeps P requests in flight per connection; memaslap cannot pipeline,
# so a minimal pipelining client (a bare socket writing P requests, then reading P replies; in the
# test tree) runs beside it at the same depth. See docs/memcache-speed.md.
#
#   bench/memcache-vs-memaslap.sh
#   ROUNDS=5 USERS=16 SECONDS_PER_RUN=10 PIPELINE=16 bench/memcache-vs-memaslap.sh
#   SERVER=127.0.0.1:21201 bench/memcache-vs-memaslap.sh
#
# About 2 minutes per round with the defaults (4 runs of 10 s, plus JVM starts).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
USERS=${USERS:-16}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
VALUE_SIZE=${VALUE_SIZE:-100}
PIPELINE=${PIPELINE:-1}
THREADS=${THREADS:-2} # memaslap's threads: one per core
OPS=${OPS:-"set get"}
# Gatling's JVM flags; the default is what the Maven plugin gives a run.
JVM_FLAGS=${JVM_FLAGS:-}

memaslap=$(command -v memcaslap || command -v memaslap || true)
[ -n "$memaslap" ] || { echo "memaslap is not installed: apt-get install -y libmemcached-tools" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. bench/lib.sh
if [ -n "${SERVER:-}" ]; then
  out=$(mktemp -d /tmp/memcache-vs-memaslap.XXXXXX)
  mkdir "$out/reports"
  case $SERVER in 127.*|localhost:*|\[::1\]:*) ;; *) echo "SERVER must be on this machine (127.x, localhost, [::1])" >&2; exit 1 ;; esac
else
  bench_start_memcached memcache-vs-memaslap
fi
bench_classpath
echo "server $SERVER; results in $out"

results=$out/results.csv # round,op,client,ops/s,p99 us
echo "round,op,client,ops/s,p99 us" >"$results"
keys=$out/keys.csv

# memaslap: the whole run's ops/s of the command's own statistics (a get run's preloading sets
# are not counted); p99 from its log2 histogram, so it is a power of two: the bucket's upper bound.
memaslap_run() { # round op
  local log=$out/memaslap-$2-$1.log cfg=$out/memaslap-$2.cfg set=0 get=0
  if [ "$2" = set ]; then set=1.0; else get=1.0; fi
  printf 'key\n32 32 1\nvalue\n%s %s 1\ncmd\n0 %s\n1 %s\n' "$VALUE_SIZE" "$VALUE_SIZE" "$set" "$get" >"$cfg"
  timeout "$LIMIT" $CLIENT_PIN "$memaslap" -s "$SERVER" -T "$THREADS" -c "$USERS" -t "${SECONDS_PER_RUN}s" \
    -S "${SECONDS_PER_RUN}s" -F "$cfg" >"$log" 2>&1 || true
  awk -v r="$1" -v op="$2" -v kind="$([ "$2" = set ] && echo Set || echo Get)" '
    $0 ~ "^" kind " Statistics$" { want = 1 } want && $1 == "Global" { tps = $4; want = 0 }
    $0 ~ "^" kind " Statistics \\(" { dist = 1; total = substr($3, 2) + 0 }
    dist && $1 ~ /^[0-9]+:$/ { b = $1 + 0; for (i = 2; i <= NF; i++) count[b + i - 2] = $i; last = b + NF - 2 }
    dist && /^$/ { dist = 0 }
    END {
      if (tps == "") exit 1
      tail = 0; for (b = last; b >= 0; b--) { tail += count[b]; if (tail > total / 100) break }
      printf "%s,%s,memaslap,%s,%d\n", r, op, tps, 2 ^ (b + 1)
    }' "$log" >>"$results" || { tail -20 "$log" >&2; exit 1; }
}

couchbench_run() { # round op
  local log=$out/couchbench-$2-$1.log simulation
  if [ "$2" = set ]; then simulation=MemSet; else simulation=MemGet; fi
  # shellcheck disable=SC2086 # JVM_FLAGS is a list of flags
  folder=$(bench_gatling "$simulation" "$log" $JVM_FLAGS -Dmemcache.servers="$SERVER" -Dusers="$USERS" \
    -Dduration="$SECONDS_PER_RUN" -DvalueSize="$VALUE_SIZE" -Dpipeline="$PIPELINE" -DkeyFile="$keys")
  [ -n "$folder" ] || { tail -20 "$log" >&2; exit 1; }
  # ops/s from siege's figures (Gatling's counts over the step's time), p99 from couchbench's exact latencies.
  paste -d, <(grep "^memcache $2," "$folder/siege-s-figures.csv") <(grep "^memcache $2," "$folder/latency-in-microseconds.csv") |
    awk -F, -v r="$1" -v op="$2" '{ printf "%s,%s,couchbench,%.0f,%.0f\n", r, op, $6, $19 }' >>"$results"
}

pipelined_run() { # round op
  local log=$out/pipelined-$2-$1.log
  timeout "$LIMIT" $CLIENT_PIN java -cp "$classpath" couchbench.memcache.PipelinedBaseline "$SERVER" "$2" "$USERS" \
    "$PIPELINE" "$SECONDS_PER_RUN" "$VALUE_SIZE" >"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
  awk -F, -v r="$1" -v op="$2" '/^result,/ { printf "%s,%s,pipelined client,%s,%s\n", r, op, $2, $3 }' "$log" >>"$results"
}

clients="couchbench memaslap"
[ "$PIPELINE" -gt 1 ] && clients="$clients pipelined"
for round in $(seq "$ROUNDS"); do
  order=$clients
  [ $((round % 2)) -eq 0 ] && order=$(echo "$clients" | tr ' ' '\n' | tac | tr '\n' ' ')
  for op in $OPS; do
    # MemGet reads the keys of the last MemSet: without a set in OPS, one unmeasured MemSet makes them.
    [ "$op" = get ] && [ ! -f "$keys" ] && couchbench_run 0 set
    for client in $order; do "${client}_run" "$round" "$op"; done
  done
  echo "round $round of $ROUNDS done"
done
column -s, -t "$results"
awk -F, "$(cat bench/stats.awk)"'
  NR > 1 { ops[$2 "," $3] = ops[$2 "," $3] " " $4; p99[$2 "," $3] = p99[$2 "," $3] " " $5; rate[$1 "," $2 "," $3] = $4 }
  END {
    n = split("'"$OPS"'", op, " ")
    for (i = 1; i <= n; i++) for (c in ops) if (index(c, op[i] ",") == 1)
      printf "%s: ops/s median %.0f (%s), p99 us median %.0f\n", c, median(ops[c]), spread(ops[c]), median(p99[c])
    for (i = 1; i <= n; i++) foreach_ratio(op[i], "memaslap")
    if ("'"$PIPELINE"'" > 1) for (i = 1; i <= n; i++) foreach_ratio(op[i], "pipelined client")
  }
  function foreach_ratio(o, other,   r, list) {
    list = ""; for (r = 1; (r "," o ",couchbench") in rate; r++) list = list " " rate[r "," o ",couchbench"] / rate[r "," o "," other]
    printf "%s, couchbench / %s by round:%s; median %.2f\n", o, other, list, median(list)
  }' "$results"
