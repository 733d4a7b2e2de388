#!/usr/bin/env bash
# Benchmark, not a test: issue 63's figures. A fresh Apache CouchDB 3.5 node with its Nouveau server beside it
# (../shared/couchdb/, on free loopback ports), then Search runs, one after the other:
#   build  the index over each of DOCS documents: documents a second, the Nouveau server's CPU and memory;
#   fresh  FRESH_DOCS documents, USERS users searching (term) while RATE freshness writes a second come for DURATION s,
#          with update=true, then with update=false: each write's time until a search found it, the stale searches;
#   class  FRESH_DOCS documents, every search class in one mix, USERS users for DURATION s (a closed model:
#          saturation): each class's latency.
# It prints lines starting with "build", "fresh" and "class"; docs/search.md quotes them.
#
#   bench/search.sh                                   # about 7 minutes
#   DOCS="20000" RATE=50 DURATION=20 bench/search.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DOCS=${DOCS:-20000 200000}
FRESH_DOCS=${FRESH_DOCS:-20000}
USERS=${USERS:-4}
RATE=${RATE:-20}
DURATION=${DURATION:-30}
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
import json, sys
label, folder = sys.argv[1], sys.argv[2]
results = json.load(open(folder + "/results.json"))
figures = results["figures"]
build = figures["build"]
if label.startswith("build"):
    print(f"{label}: {build['indexedDocs']:,} documents in {build['seconds']:.1f} s, {build['docsPerSecond']:,.0f} a"
          f" second; Nouveau CPU {build['nouveauCpuSeconds']:.1f} s, memory {build['nouveauMemoryBefore']/1e6:.0f} to"
          f" {build['nouveauMemoryAfter']/1e6:.0f} MB; CouchDB CPU {build['couchCpuSeconds']:.1f} s;"
          f" on disk {build['diskBytes']/1e6:.1f} MB")
for entry in results["requests"]:
    p = {k: entry["latency"][k] / 1000 for k in ("p50", "p90", "p99", "max")}
    line = (f"{entry['count']:,} ({entry['ko']} failed), {entry['ratePerSecond']:.1f}/s, p50 {p['p50']:.1f} ms,"
            f" p90 {p['p90']:.1f} ms, p99 {p['p99']:.1f} ms, max {p['max']:.1f} ms")
    if label.startswith("fresh") and entry["name"] in ("write found by search", "fresh write", "fresh search"):
        print(f"{label} {entry['name']}: {line}")
    elif label.startswith("class"):
        print(f"{label} {entry['name']}: {line}")
if label.startswith("fresh"):
    fresh = figures["freshness"]
    print(f"{label}: {fresh['found']} writes found, {fresh['notFound']} not found in 30 s; {fresh['searches']}"
          f" searches, {fresh['stale']} stale")
PY
}

for docs in $DOCS; do
  report "build $docs" "$(search "build-$docs" -Ddocs="$docs" -Dsearches=term -Dusers=1 -Drequests=1)"
done
for update in true false; do
  report "fresh update=$update" "$(search "fresh-$update" -Ddocs="$FRESH_DOCS" -Dsearches=term -Dusers="$USERS" \
    -Drate="$RATE" -Dduration="$DURATION" -Dupdate="$update")"
done
report "class" "$(search class -Ddocs="$FRESH_DOCS" -Dusers="$USERS" -Dduration="$DURATION" -Dq=1)"
echo "search: results in $out/reports"
