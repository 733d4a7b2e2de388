#!/usr/bin/env bash
# Benchmark, not a test: issue 64's CacheAside figures against a fresh Apache CouchDB 3.5 node (../shared/couchdb/, or
# COUCHDB_HOME naming an unpacked release) on a free loopback port, each run with the memcached it starts itself (on
# the PATH, a free port, -Dmemcache.memory MB). docs/cache-aside.md quotes the lines it prints, one part at a time:
#
# - size: the hit ratio and CouchDB's load against the cache's size and the key skew: KEYS documents of VALUE_SIZE
#   characters, OPERATIONS operations (read 0.95, update 0.05) for each MEMORY (MB) and each DISTRIBUTION.
# - stampede: HOT hot keys with a TTL of STAMPEDE_TTL s read by STAMPEDE_THREADS users for RUN_SECONDS, without
#   protection and with -Dprotect=meta, ROUNDS times each, interleaved: CouchDB reads per refill of a hot key.
# - invalidate: an update's invalidation, plain delete against -Dprotect=meta's md I (the key marked stale, one reader
#   recaching while the others are served the old value): INVALIDATE_KEYS keys, a share INVALIDATE_UPDATE of updates,
#   16 users for RUN_SECONDS, ROUNDS times each, interleaved: CouchDB's reads, the stale reads by the race and on
#   purpose, the misses by cause.
# - warmup: memcached restarted WARM_AT s into a load of WARM_SECONDS over WARM_KEYS keys (-Dbackground=restart-cache):
#   the hit ratio before, the warm-up's seconds, CouchDB's reads a second before and meanwhile; ROUNDS times.
#
# Each line also says CouchDB's own count of document reads over the load against the reads that reached it.
#
#   bench/cache-aside.sh                                   # every part, about 17 minutes
#   PARTS=stampede ROUNDS=5 bench/cache-aside.sh
#   PARTS=invalidate ROUNDS=3 bench/cache-aside.sh
#   PARTS="size stampede warmup" OPERATIONS=300 MEMORY=2 DISTRIBUTION=zipfian RUN_SECONDS=3 ROUNDS=1 WARM_SECONDS=12 \
#     WARM_AT=5 bench/cache-aside.sh                       # a check of the script, not a measurement
set -euo pipefail
cd "$(dirname "$0")/.."

PARTS=${PARTS:-size stampede invalidate warmup}
KEYS=${KEYS:-4000}
VALUE_SIZE=${VALUE_SIZE:-1000}
OPERATIONS=${OPERATIONS:-30000}
MEMORY=${MEMORY:-2 3 4 8}
DISTRIBUTION=${DISTRIBUTION:-zipfian uniform}
HOT=${HOT:-4}
STAMPEDE_TTL=${STAMPEDE_TTL:-2}
STAMPEDE_THREADS=${STAMPEDE_THREADS:-32}
RUN_SECONDS=${RUN_SECONDS:-20}
ROUNDS=${ROUNDS:-3}
INVALIDATE_KEYS=${INVALIDATE_KEYS:-1000}
INVALIDATE_UPDATE=${INVALIDATE_UPDATE:-0.2}
WARM_KEYS=${WARM_KEYS:-1000}
WARM_SECONDS=${WARM_SECONDS:-40}
WARM_AT=${WARM_AT:-20}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out cache-aside
bench_classpath
bench_start_couchdb "$out/node" cacheaside
trap 'bench_stop_couchdb "$out/node"' EXIT

run=0
cache_aside() { # PART LABEL -Dname=value...: one run against the node; prints its figures on a line "PART LABEL: ..."
  local part=$1 label=$2 folder
  shift 2
  run=$((run + 1))
  # The password from the environment, out of ps.
  folder=$(COUCHDB_PASSWORD=$COUCH_PASSWORD LIMIT=900 bench_gatling CacheAside "$out/run-$run.log" \
    -Dcouchdb.url="$URL" -Dcouchdb.user=admin -Ddatabase="bench_cacheaside_$run" "$@")
  [ -n "$folder" ] || { echo "no summary for $part $label; see $out/run-$run.log" >&2; exit 1; }
  python3 - "$part" "$label" "$folder/results.json" <<'PY'
import json, sys
part, label, results = sys.argv[1:4]
run = json.load(open(results))
f = run["figures"]
ok = {e["name"]: e["ok"] for e in run["requests"] if e["kind"] == "request"}
reads = f["hits"] + f["misses"]
operations = reads + f["updates"]
couch = ok.get("couchdb get", 0)
count = next((c for c in run.get("serverCounts", []) if c["counter"] == "couchdb database_reads"), None)
counted = ("CouchDB's database_reads n/a" if count is None or count.get("notCounted") is not None
           else f"CouchDB's database_reads +{count['after'] - count['before']:,}")
head = f"{part} {label}: "
def causes_line(figures):
    causes = figures.get("missCauses") or {}
    return ", ".join(f"{cause} {causes.get(cause, 'n/a')}" for cause in
                     ("cold", "invalidated", "expired", "evicted", "recached", "getExpired"))
if part == "size":
    memory = f.get("cacheMemory") or {}
    print(head + f"hit ratio {f['hits'] / max(reads, 1):.3f}, CouchDB reads an operation"
          f" {couch / max(operations, 1):.3f}, evictions {memory.get('evictions', 'n/a')}; {reads:,} reads,"
          f" {couch:,} reached CouchDB, {counted}; misses {causes_line(f)}")
elif part == "stampede":
    hot = f["hotKeys"]
    refills = sum(k["refills"] for k in hot)
    hot_reads = sum(k["couchReads"] for k in hot)
    seconds = max(len(f["seconds"]), 1)
    most = max((k["mostInOneRefill"] for k in hot), default=0)
    recaches = sum(k.get("recaches", 0) for k in hot)
    print(head + f"{refills} refills of {len(hot)} hot keys ({recaches} begun by R before an expiry),"
          f" {hot_reads} CouchDB reads,"
          f" {hot_reads / max(refills, 1):.2f} a refill (most in one {most}), hot keys' CouchDB reads a"
          f" second {hot_reads / seconds:.1f}; served during a recache {f['servedDuringRecache']:,}, waited"
          f" {f['waited']:,}; {reads:,} reads ({f['hits']:,} hits), {couch:,} reached CouchDB, {counted}; misses"
          f" {causes_line(f)}")
elif part == "invalidate":
    seconds = max(len(f["seconds"]), 1)
    print(head + f"{reads:,} reads, hit ratio {f['hits'] / max(reads, 1):.3f}, {couch:,} reached CouchDB"
          f" ({couch / seconds:.1f} a second, {couch / max(f['updates'] - f['conflicts'], 1):.2f} an update stored),"
          f" {counted}; {f['updates'] - f['conflicts']:,} updates stored; stale reads {f['staleReads']:,}"
          f" ({f['staleReads'] / max(reads, 1):.4f}: by the race {f['staleReads'] - f['staleOnPurpose']:,}, on purpose"
          f" {f['staleOnPurpose']:,}), served flagged stale {f['servedFlaggedStale']:,}; misses {causes_line(f)}")
else:
    for cold in f["coldCaches"]:
        back = "not back by the run's end" if cold["warmUpSeconds"] is None else f"warm-up {cold['warmUpSeconds']} s"
        print(head + f"emptied at {cold['emptiedAt']:.1f} s, answered at {cold['answeredAt']:.1f} s; hit ratio before"
              f" {cold['hitRatioBefore']:.4f}; {back}; CouchDB reads a second before {cold['couchReadsBefore']:.1f},"
              f" warming up {cold['couchReadsWarmingUp']:.1f}; {cold['cacheDown']} gets failed; {counted}")
    for second in f["seconds"]:
        r = second["hits"] + second["misses"]
        print(head + f"second {second['second']}: {r} reads, hit ratio {second['hits'] / r if r else float('nan'):.3f},"
              f" CouchDB reads {second['couchReads']}, gets failed {second['cacheDown']}")
PY
}

for part in $PARTS; do
  case $part in
    size)
      for memory in $MEMORY; do
        for distribution in $DISTRIBUTION; do
          cache_aside size "$memory MB $distribution" -Dkeys="$KEYS" -DvalueSize="$VALUE_SIZE" \
            -Doperations="$OPERATIONS" -Dthreads=16 -Ddistribution="$distribution" -Dmemcache.memory="$memory"
        done
      done ;;
    stampede)
      for round in $(seq "$ROUNDS"); do
        for protect in none meta; do
          cache_aside stampede "protect=$protect round $round" -Dduration="$RUN_SECONDS" -Dhot="$HOT" \
            -Dttl="$STAMPEDE_TTL" -Dthreads="$STAMPEDE_THREADS" -Dprotect="$protect"
        done
      done ;;
    invalidate)
      for round in $(seq "$ROUNDS"); do
        for protect in none meta; do
          cache_aside invalidate "protect=$protect round $round" -Dkeys="$INVALIDATE_KEYS" -Dupdate="$INVALIDATE_UPDATE" \
            -Dduration="$RUN_SECONDS" -Dthreads=16 -Dinvalidate=delete -Dprotect="$protect"
        done
      done ;;
    warmup)
      for round in $(seq "$ROUNDS"); do
        cache_aside warmup "round $round" -Dkeys="$WARM_KEYS" -Dduration="$WARM_SECONDS" \
          -Dbackground=restart-cache -DbackgroundAt="$WARM_AT"
      done ;;
    *) echo "PARTS: $part is not size, stampede, invalidate or warmup" >&2; exit 1 ;;
  esac
done
echo "cache-aside: results in $out"
