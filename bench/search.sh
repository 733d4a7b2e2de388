#!/usr/bin/env bash
# Benchmark, not a test: issue 63's figures. A fresh Apache CouchDB 3.5 node with its Nouveau server beside it
# (../shared/couchdb/, on free loopback ports), then Search runs, one after the other:
#   build  the index over each of DOCS documents: documents a second, the Nouveau server's CPU and memory;
#   fresh  FRESH_DOCS documents, USERS users searching (term) while each of RATES freshness writes a second come for
#          DURATION s with update=true, then RATE_FALSE with update=false: each write's time until a search found it,
#          the stale searches;
#   class  FRESH_DOCS documents, every search class in one mix, USERS users for DURATION s (a closed model:
#          saturation): each class's latency;
#   rate   each class alone at TARGET searches a second for STEP s, RATE_USERS users sharing it, one shard: each
#          class's latency below saturation;
#   curve  each of CURVE_SEARCHES alone along the staircase TARGETS (STEP s measured after 3 s settling a step);
#   engine the questions Mango, a view and Mango's Nouveau index also answer, each asked of each, alone at
#          ENGINE_TARGET a second for STEP s, then all in one mix for DURATION s (saturation);
#   rebuild (not in the default PARTS) over each of DOCS documents, the build and then a rebuild after the index
#          function changed, each while BUILD_RATE writes a second come (-Drebuild=true -DbuildRate=BUILD_RATE, one
#          shard: -Dq=1);
#   partition (not in the default PARTS) FRESH_DOCS documents in a partitioned database (8 partitions), every class
#          asked through _partition/<p>/... in one mix, USERS users for DURATION s (saturation), then each class
#          alone at TARGET a second for STEP s, and the same unpartitioned (all with one shard, -Dq=1, so the
#          partition's smaller index is the one difference).
# It prints lines starting with the part's name; docs/search.md quotes them.
#
#   bench/search.sh                                   # about 22 minutes
#   DOCS="20000" RATES=50 DURATION=20 bench/search.sh
#   PARTS="rebuild partition" BUILD_RATE=20 bench/search.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DOCS=${DOCS:-20000 200000}
FRESH_DOCS=${FRESH_DOCS:-20000}
USERS=${USERS:-4}
RATES=${RATES:-20 100}
RATE_FALSE=${RATE_FALSE:-20}
DURATION=${DURATION:-30}
TARGET=${TARGET:-50}
STEP=${STEP:-10}
TARGETS=${TARGETS:-25,50,100,200,400}
CURVE_SEARCHES=${CURVE_SEARCHES:-term,range,sort_number,docs}
ENGINE_TARGET=${ENGINE_TARGET:-20}
# Users sharing a rate: a user asks one search at a time, so a rate above users / latency cannot be offered.
RATE_USERS=${RATE_USERS:-8}
ENGINES=nouveau,mango,view,mango_nouveau
PARTS=${PARTS:-build fresh class rate curve engine}
BUILD_RATE=${BUILD_RATE:-20}
LIMIT=${LIMIT:-1800}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out search
bench_classpath
bench_start_nouveau "$out/nouveau"
bench_start_couchdb "$out/node" search
trap 'bench_stop_couchdb "$out/node"; bench_stop_nouveau "$out/nouveau"' EXIT

# search LABEL -Dname=value...: one run; prints its run folder.
search() {
  local label=$1
  shift
  local folder
  folder=$(bench_gatling Search "$out/$label.log" -Dcouchdb.url="$URL" -Dcouchdb.user=admin \
    -Dcouchdb.password="$COUCH_PASSWORD" "$@")
  [ -n "$folder" ] || { echo "the $label run left no summary; see $out/$label.log" >&2; exit 1; }
  echo "$folder"
}

report() {
  python3 - "$@" <<'PY'
import csv, json, os, sys
label, folder = sys.argv[1], sys.argv[2]
results = json.load(open(folder + "/results.json"))
figures = results["figures"]
build = figures["build"]
def built(name, build):
    print(f"{label} {name}: {build['indexedDocs']:,} documents in {build['seconds']:.1f} s, {build['docsPerSecond']:,.0f}"
          f" a second, {build['writes']:,} writes acknowledged meanwhile; Nouveau CPU {build['nouveauCpuSeconds']:.1f} s,"
          f" memory {build['nouveauMemoryBefore']/1e6:.0f} to {build['nouveauMemoryAfter']/1e6:.0f} MB; CouchDB CPU"
          f" {build['couchCpuSeconds']:.1f} s; on disk {build['diskBytes']/1e6:.1f} MB")
if label.startswith(("build", "rebuild")):
    built("build", build)
if figures.get("rebuild"):
    built("rebuild", figures["rebuild"])
for entry in results["requests"]:
    p = {k: entry["latency"][k] / 1000 for k in ("p50", "p90", "p99", "max")}
    line = (f"{entry['count']:,} ({entry['ko']} failed), {entry['ratePerSecond']:.1f}/s, p50 {p['p50']:.1f} ms,"
            f" p90 {p['p90']:.1f} ms, p99 {p['p99']:.1f} ms, max {p['max']:.1f} ms")
    if label.startswith("fresh") and entry["name"] in ("write found by search", "fresh write", "fresh search"):
        print(f"{label} {entry['name']}: {line}")
    elif label.startswith(("class", "rate", "curve", "engine", "partition")) and entry.get("kind") != "group":
        print(f"{label} {entry['name']}: {line}")
# Each class's steps at its rates: from the intended start, as the page's table has them.
steps = os.path.join(folder, "the-staircase-step-by-step.csv")
if os.path.exists(steps):
    for row in csv.DictReader(open(steps)):
        print(f"{label} step {row['system']} {row['step']}: asked {row['asked (/s)']}/s, achieved"
              f" {float(row['achieved (/s)']):.1f}/s, {row['failed']} failed, p50 {row['intended p50 (ms)']} ms,"
              f" p99 {row['intended p99 (ms)']} ms from the intended start, {row['started late']} started late")
for ddoc, seconds in figures.get("comparisonBuilds", {}).items():
    print(f"{label} build {ddoc}: {seconds:.1f} s")
if label.startswith("fresh"):
    fresh = figures["freshness"]
    print(f"{label}: {fresh['found']} writes found, {fresh['notFound']} not found in 30 s; {fresh['searches']}"
          f" searches, {fresh['stale']} stale")
PY
}

part() { case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if part build; then
  for docs in $DOCS; do
    report "build $docs" "$(search "build-$docs" -Ddocs="$docs" -Dsearches=term -Dusers=1 -Drequests=1)"
  done
fi
if part rebuild; then
  for docs in $DOCS; do
    report "rebuild $docs, $BUILD_RATE writes/s" "$(search "rebuild-$docs" -Ddocs="$docs" -Dsearches=term -Dusers=1 \
      -Drequests=1 -Drebuild=true -DbuildRate="$BUILD_RATE" -Dq=1)"
  done
fi
if part fresh; then
  for rate in $RATES; do
    report "fresh $rate/s update=true" "$(search "fresh-$rate-true" -Ddocs="$FRESH_DOCS" -Dsearches=term \
      -Dusers="$USERS" -Drate="$rate" -Dduration="$DURATION")"
  done
  report "fresh $RATE_FALSE/s update=false" "$(search "fresh-$RATE_FALSE-false" -Ddocs="$FRESH_DOCS" -Dsearches=term \
    -Dusers="$USERS" -Drate="$RATE_FALSE" -Dduration="$DURATION" -Dupdate=false)"
fi
part class && report "class" "$(search class -Ddocs="$FRESH_DOCS" -Dusers="$USERS" -Dduration="$DURATION" -Dq=1)"
part rate && report "rate $TARGET/s" "$(search rate -Ddocs="$FRESH_DOCS" -Dusers="$RATE_USERS" -Dtarget="$TARGET" \
  -Dduration="$STEP" -Dq=1)"
part curve && report "curve" "$(search curve -Ddocs="$FRESH_DOCS" -Dusers="$RATE_USERS" -Dsearches="$CURVE_SEARCHES" \
  -Dtargets="$TARGETS" -DstepSeconds="$STEP" -DsettleSeconds=3 -Dq=1)"
if part engine; then
  report "engine $ENGINE_TARGET/s" "$(search engine-rate -Ddocs="$FRESH_DOCS" -Dusers="$RATE_USERS" \
    -Dengines="$ENGINES" -Dtarget="$ENGINE_TARGET" -Dduration="$STEP" -Dq=1)"
  report "engine mix" "$(search engine-mix -Ddocs="$FRESH_DOCS" -Dusers="$USERS" -Dengines="$ENGINES" \
    -Dduration="$DURATION" -Dq=1)"
fi
if part partition; then
  report "partition mix" "$(search partition-mix -Ddocs="$FRESH_DOCS" -Dusers="$USERS" -Dduration="$DURATION" \
    -Dpartitioned=true -Dq=1)"
  report "partition $TARGET/s" "$(search partition-rate -Ddocs="$FRESH_DOCS" -Dusers="$RATE_USERS" \
    -Dtarget="$TARGET" -Dduration="$STEP" -Dpartitioned=true -Dq=1)"
  report "unpartitioned $TARGET/s" "$(search unpartitioned-rate -Ddocs="$FRESH_DOCS" -Dusers="$RATE_USERS" \
    -Dtarget="$TARGET" -Dduration="$STEP" -Dq=1)"
fi
echo "search: results in $out/reports"
