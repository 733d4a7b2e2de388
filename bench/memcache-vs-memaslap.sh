#!/usr/bin/env bash
# Benchmark, not a test: MemSet and MemGet against memaslap (Debian's libmemcached-tools, as
# memcaslap) with the same connections, value size and command (all sets, or all gets of keys set
# before), on one memcached started here on a free loopback port (or SERVER=host:port, e.g. a
# MemcacheDB on 127.0.0.1:21201). Rounds are interleaved and their order alternates, so that noise
# from a shared machine falls on all clients alike. With PIPELINE=P, couchbench keeps P requests in
# flight per connection; memaslap cannot pipeline, so a minimal pipelining client (a bare socket
# writing P requests, then reading P replies; PipelinedBaseline in the test tree) runs beside it.
#
# Every client is measured the same way, by the server: its cmd_set or cmd_get, sampled twice a
# second during the run, over the run's steady part (the longest stretch at 70% of the run's peak
# rate or more, a second trimmed at each end). That leaves out the JVM's start, couchbench's
# warm-up is counted only where it runs at full speed, and memaslap's preloading sets of a get run
# are not counted. The clients' own figures are printed beside it, and p99 comes from each client:
# couchbench's HdrHistogram, the minimal client's, memaslap's log2 histogram (a power of two: the
# upper bound of the bucket that holds p99). See docs/memcache-speed.md.
#
#   bench/memcache-vs-memaslap.sh
#   ROUNDS=5 USERS=16 SECONDS_PER_RUN=20 PIPELINE=16 bench/memcache-vs-memaslap.sh
#   SERVER=127.0.0.1:21201 bench/memcache-vs-memaslap.sh
#   PROTOCOLS=compare PIPELINE=16 bench/memcache-vs-memaslap.sh   # couchbench in text and in meta, same rounds
#   WORKLOAD=compare OPS=get bench/memcache-vs-memaslap.sh          # and Workload's YCSB workload C (all reads)
#   SAMPLING=compare CLIENTS="couchbench unsampled" bench/memcache-vs-memaslap.sh   # what reading the servers costs
#
# About a minute per round with the defaults; run it on an otherwise idle machine (or under
# nice -n -19): it measures CPU that other processes take away.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
USERS=${USERS:-16}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-15}
VALUE_SIZE=${VALUE_SIZE:-100}
PIPELINE=${PIPELINE:-1}
THREADS=${THREADS:-2} # memaslap's threads: one per core
OPS=${OPS:-"set get"}
JVM_FLAGS=${JVM_FLAGS:-} # extra flags for couchbench's JVM, e.g. to try a GC
TIMINGS=${TIMINGS:-} # compare: also run couchbench without its nanosecond recorder (-DclientTimes=false)
SAMPLING=${SAMPLING:-} # compare: also run couchbench without reading the servers every second (-DsampleServers=false)
PROTOCOLS=${PROTOCOLS:-} # compare: also run couchbench in memcached 1.6's meta protocol (-Dprotocol=meta)
# compare: with OPS=get, also run Workload -Dworkload=c on memcache (YCSB's read-only workload: zipfian reads of
# RECORDS records of one field, each value VALUE_SIZE bytes, every read checked and timed on both clocks)
WORKLOAD=${WORKLOAD:-}
RECORDS=${RECORDS:-10000}

memaslap=$(command -v memcaslap || command -v memaslap || true)
[ -n "$memaslap" ] || { echo "memaslap is not installed: apt-get install -y libmemcached-tools" >&2; exit 1; }
given_server=${SERVER:-}
# shellcheck source=bench/lib.sh
. bench/lib.sh
if [ -n "$given_server" ]; then
  case $given_server in
    127.*:* | localhost:* | \[::1\]:*) SERVER=$given_server ;;
    *) echo "SERVER must be on this machine (127.x.x.x:port, localhost:port or [::1]:port)" >&2; exit 1 ;;
  esac
  out=$(mktemp -d /tmp/memcache-vs-memaslap.XXXXXX)
  mkdir "$out/reports"
else
  bench_start_memcached memcache-vs-memaslap
fi
host=${SERVER%:*}
host=${host#[}
host=${host%]}
port=${SERVER##*:}
bench_classpath
echo "server $SERVER, $USERS connections, pipeline $PIPELINE, $SECONDS_PER_RUN s a run; results in $out"

results=$out/results.csv
echo "round,op,client,server ops/s,own ops/s,p99 us,mean us" >"$results"
keys=$out/keys.csv

server_stat() { # NAME: one counter of the server's stats
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"; printf "stats\r\nquit\r\n" >&3; cat <&3' "$host" "$port" |
    tr -d '\r' | awk -v name="$1" '$2 == name { print $3 }'
}

# measured OP PID NAME: samples the server's counter of OP while PID runs (into samples-NAME.txt),
# then prints its steady ops/s.
measured() {
  local counter=cmd_$1 samples=$out/samples-$3.txt value
  : >"$samples"
  while kill -0 "$2" 2>/dev/null; do
    value=$(server_stat "$counter" || true)
    [ -n "$value" ] && echo "$(date +%s.%N) $value" >>"$samples"
    sleep 0.5
  done
  awk '{ t[NR] = $1; c[NR] = $2 }
    END {
      # Rates over 2 s, so that a late sample does not make a peak; the peak is their 80th percentile.
      for (i = 5; i <= NR; i++) { r[i] = (c[i] - c[i - 4]) / (t[i] - t[i - 4]); sorted[++n] = r[i] }
      for (i = 2; i <= n; i++) { x = sorted[i]; for (j = i - 1; j > 0 && sorted[j] > x; j--) sorted[j + 1] = sorted[j]; sorted[j + 1] = x }
      peak = sorted[int(0.8 * n) + 1]
      # The longest stretch at 70% of the peak or more: a pause (couchbench between its warm-up and its
      # load) ends a stretch.
      for (i = 5; i <= NR; i++) {
        if (r[i] < 0.7 * peak) { start = 0; continue }
        if (!start) start = i - 4
        if (i - start > last - first) { first = start; last = i }
      }
      first += 2; last -= 2 # a second trimmed at each end
      if (n < 4 || last <= first) { print "n/a"; exit }
      printf "%.0f\n", (c[last] - c[first]) / (t[last] - t[first])
    }' "$samples"
}

# memaslap runs without -S: its periodic statistics halved its rate here, and without them it prints
# no latencies, so its p99 is left out; the mean latency of every client is concurrency / rate.
memaslap_run() { # round op
  local log=$out/memaslap-$2-$1.log cfg=$out/memaslap-$2.cfg set=0 get=0 pid rate
  if [ "$2" = set ]; then set=1.0; else get=1.0; fi
  printf 'key\n32 32 1\nvalue\n%s %s 1\ncmd\n0 %s\n1 %s\n' "$VALUE_SIZE" "$VALUE_SIZE" "$set" "$get" >"$cfg"
  timeout "$LIMIT" $CLIENT_PIN "$memaslap" -s "$SERVER" -T "$THREADS" -c "$USERS" -t "${SECONDS_PER_RUN}s" \
    -F "$cfg" >"$log" 2>&1 &
  pid=$!
  rate=$(measured "$2" $pid "memaslap-$2-$1")
  wait $pid || true
  awk -v r="$1" -v op="$2" -v rate="$rate" '/^Run time:/ { tps = $7 }
    END { if (tps == "") exit 1; printf "%s,%s,memaslap,%s,%s (gets and sets),n/a\n", r, op, rate, tps }' \
    "$log" >>"$results" || { tail -20 "$log" >&2; exit 1; }
}

couchbench_run() { # round op [client name, flags...]
  local round=$1 op=$2 name=${3:-couchbench} log simulation pid rate
  shift $(($# < 3 ? $# : 3))
  log=$out/${name// /-}-$op-$round.log
  if [ "$op" = set ]; then simulation=MemSet; else simulation=MemGet; fi
  # shellcheck disable=SC2086 # JVM_FLAGS is a list of flags
  bench_gatling "$simulation" "$log" $JVM_FLAGS "$@" -Dmemcache.servers="$SERVER" -Dusers="$USERS" \
    -Dduration="$SECONDS_PER_RUN" -DvalueSize="$VALUE_SIZE" -Dpipeline="$PIPELINE" -DkeyFile="$keys" >/dev/null &
  pid=$!
  rate=$(measured "$op" $pid "${name// /-}-$op-$round")
  wait $pid || true
  folder=$(sed -n 's|^couchbench: summary: \(.*\)/summary.html$|\1|p' "$log" | tail -1)
  [ -n "$folder" ] || { tail -20 "$log" >&2; exit 1; }
  # Its own figures: Gatling's count over the measured step's time, p99 from results.json's table.
  paste -d, <(grep "^memcache $op," "$folder/siege-s-figures.csv") <(grep "^memcache $op," "$folder/latency-in-microseconds.csv") |
    awk -F, -v r="$round" -v op="$op" -v name="$name" -v rate="$rate" \
      '{ printf "%s,%s,%s,%s,%.0f,%.0f\n", r, op, name, rate, $6, $22 }' >>"$results"
}

untimed_run() { # round op: couchbench without its nanosecond recorder, to see what recording costs
  couchbench_run "$1" "$2" "couchbench untimed" -DclientTimes=false
}

unsampled_run() { # round op: couchbench without the servers read every second, to see what that reading costs
  couchbench_run "$1" "$2" "couchbench unsampled" -DsampleServers=false
}

meta_run() { # round op: couchbench in the meta protocol, ms and mg v, quiet batches closed by mn with PIPELINE above 1
  couchbench_run "$1" "$2" "couchbench meta" -Dprotocol=meta
}

workload_run() { # round op: Workload's workload C, gets only, USERS threads; its own rate is ok reads over its seconds
  local round=$1 op=$2 log=$out/workload-$2-$1.log pid rate folder
  [ "$op" = get ] || return 0
  # shellcheck disable=SC2086 # JVM_FLAGS is a list of flags
  bench_gatling Workload "$log" $JVM_FLAGS -Dmemcache.servers="$SERVER" -Dsystem=memcache -Dworkload=c \
    -Dthreads="$USERS" -Drecords="$RECORDS" -Dfields=1 -DfieldLength=$((VALUE_SIZE - 2)) \
    -Dduration="$SECONDS_PER_RUN" >/dev/null &
  pid=$!
  rate=$(measured get $pid "workload-get-$round")
  wait $pid || true
  folder=$(sed -n 's|^couchbench: summary: \(.*\)/summary.html$|\1|p' "$log" | tail -1)
  [ -n "$folder" ] || { tail -20 "$log" >&2; exit 1; }
  # Its own figures: the ok reads per second and the p99 from the actual start, in ms, of the summary's tables.
  awk -F, -v r="$round" -v op="$op" -v rate="$rate" \
    'FNR == 1 { file++; for (i = 1; i <= NF; i++) column[file, $i] = i }
     file == 1 && $1 == "memcache" && $2 == "read" { own = $column[1, "ok/s"] }
     file == 2 && $1 == "memcache" && $2 == "read" && $3 == "actual" { p99 = $column[2, "p99 (ms)"] * 1000 }
     END { printf "%s,%s,workload c,%s,%.0f,%.0f\n", r, op, rate, own, p99 }' \
    "$folder/operations-the-mix-asked-and-run-outcomes-rate.csv" \
    "$folder/latency-of-successful-operations-from-the-intended-and-from-the-actual-start.csv" >>"$results"
}

pipelined_run() { # round op
  local log=$out/pipelined-$2-$1.log pid rate
  timeout "$LIMIT" $CLIENT_PIN java -cp "$classpath" couchbench.memcache.PipelinedBaseline "$SERVER" "$2" "$USERS" \
    "$PIPELINE" "$SECONDS_PER_RUN" "$VALUE_SIZE" >"$log" 2>&1 &
  pid=$!
  rate=$(measured "$2" $pid "pipelined-$2-$1")
  wait $pid || { tail -20 "$log" >&2; exit 1; }
  awk -F, -v r="$1" -v op="$2" -v rate="$rate" '/^result,/ { printf "%s,%s,pipelined client,%s,%s,%s\n", r, op, rate, $2, $3 }' \
    "$log" >>"$results"
}

clients="couchbench memaslap"
[ "$PIPELINE" -gt 1 ] && clients="$clients pipelined"
[ "$TIMINGS" = compare ] && clients="$clients untimed"
[ "$SAMPLING" = compare ] && clients="$clients unsampled"
[ "$PROTOCOLS" = compare ] && clients="$clients meta"
[ "$WORKLOAD" = compare ] && clients="$clients workload"
clients=${CLIENTS:-$clients} # e.g. CLIENTS="couchbench untimed": only those
for round in $(seq "$ROUNDS"); do
  order=$clients
  [ $((round % 2)) -eq 0 ] && order=$(echo "$clients" | tr ' ' '\n' | tac | tr '\n' ' ')
  for op in $OPS; do
    # MemGet reads the keys of the last MemSet: without a set in OPS, one unmeasured MemSet makes them.
    if [ "$op" = get ] && [ ! -f "$keys" ]; then couchbench_run 0 set; fi
    for client in $order; do "${client}_run" "$round" "$op"; done
  done
  echo "round $round of $ROUNDS done"
done
# Mean latency by Little's law: requests in flight / rate.
awk -F, -v inflight=$((USERS * PIPELINE)) -v single="$USERS" 'NR == 1 || $1 == 0 { if (NR == 1) print; next }
  { n = $3 == "memaslap" ? single : inflight; if ($4 + 0 > 0) printf "%s,%.0f\n", $0, 1e6 * n / $4; else print $0 ",n/a" }' \
  "$results" >"$results.tmp"
mv "$results.tmp" "$results"

column -s, -t "$results"
awk -F, "$(cat bench/stats.awk)"'
  NR > 1 { key = $2 "," $3; ops[key] = ops[key] " " $4; p99[key] = p99[key] " " $6; mean[key] = mean[key] " " $7
    rate[$1 "," key] = $4 }
  END {
    n = split("'"$OPS"'", op, " ")
    for (i = 1; i <= n; i++) for (k in ops) if (index(k, op[i] ",") == 1)
      printf "%s: server ops/s median %.0f (%s), mean us median %.0f, p99 us median %s\n", k, median(ops[k]),
        spread(ops[k]), median(mean[k]), k ~ /memaslap/ ? "n/a" : sprintf("%.0f", median(p99[k]))
    for (i = 1; i <= n; i++) ratio(op[i], "memaslap")
    if ('"$PIPELINE"' > 1) for (i = 1; i <= n; i++) ratio(op[i], "pipelined client")
    if ("'"$TIMINGS"'" == "compare") for (i = 1; i <= n; i++) ratio(op[i], "couchbench untimed")
    if ("'"$SAMPLING"'" == "compare") for (i = 1; i <= n; i++) ratio(op[i], "couchbench unsampled")
    if ("'"$WORKLOAD"'" == "compare") for (i = 1; i <= n; i++) if (op[i] == "get") ratio(op[i], "memaslap", "workload c")
    if ("'"$PROTOCOLS"'" == "compare") for (i = 1; i <= n; i++) { ratio(op[i], "couchbench meta"); ratio(op[i], "memaslap", "couchbench meta") }
  }
  function ratio(o, other, mine,   r, list) { # the rate of mine over that of other, round by round; mine: couchbench by default
    if (mine == "") mine = "couchbench"
    list = ""
    for (r = 1; (r "," o "," mine) in rate; r++)
      if (rate[r "," o "," mine] + 0 > 0 && rate[r "," o "," other] + 0 > 0)
        list = list " " sprintf("%.2f", rate[r "," o "," mine] / rate[r "," o "," other])
    printf "%s, %s / %s by round:%s; median %.2f\n", o, mine, other, list, median(list)
  }' "$results"
