#!/usr/bin/env bash
# Benchmark, not a test: key draws per second, on one thread over 1,000,000 keys, of couchbench's scrambled
# zipfian (couchbench.distributions.ScrambledZipfian, on Commons RNG's XO_RO_SHI_RO_128_PP) against YCSB 0.17.0's
# ScrambledZipfianGenerator (on ThreadLocalRandom), with couchbench's zipfian key chooser (the same draw plus the
# check against the last acknowledged insert) and its uniform key chooser beside them for scale. Warm-up rounds
# first, not counted; then each round draws DRAWS from every contender in turn, the first one changing from round to
# round; medians and ranges over the rounds, and of each round's ratio to YCSB's rate in that round. The load
# average before and after is printed: the measure lock keeps other measurements away, not other work. No server.
# See docs/workloads.md, "Key draws".
#
#   flock /tmp/couchbench-measure.lock bash bench/keydraw-rate.sh
#   ROUNDS=9 DRAWS=50000000 CLIENT_CPUS=0 bench/keydraw-rate.sh
#
# About 30 s with the defaults, after the build.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
DRAWS=${DRAWS:-20000000}
WARMUPS=${WARMUPS:-2}

# shellcheck source=bench/lib.sh
. bench/lib.sh
out=$(mktemp -d /tmp/keydraw-rate.XXXXXX)
bench_classpath
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)" | tee "$out/rates.txt"
# shellcheck disable=SC2086 # $CLIENT_PIN is a command or nothing
timeout "$LIMIT" $CLIENT_PIN java -Xmx256m -cp "$classpath" couchbench.distributions.KeyDrawRate \
  "$ROUNDS" "$DRAWS" "$WARMUPS" | tee -a "$out/rates.txt"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -1)" | tee -a "$out/rates.txt"
echo "rates in $out/rates.txt"
