#!/usr/bin/env bash
# Not a test: the picture docs/metrics.md shows. A fresh CouchDB 3.5 node (../shared/couchdb/) and Prometheus (Debian's
# package) scraping, every second, couchbench's /metrics and the node's own _prometheus, with the scrape config of
# deploy/prometheus/ (its ports and password file pointed here); CouchSet writes keys, then CouchGet reads them for
# DURATION seconds at RATE a second on each of USERS connections; then headless Chromium takes Prometheus's graph page of the
# run's requests a second beside CouchDB's own count, and of the p99 from couchbench's histogram.
#
#   bench/metrics-screenshot.sh [OUT.png]          # about 2 min; docs/pages/metrics-prometheus.png by default
set -euo pipefail
cd "$(dirname "$0")/.."
shot=${1:-docs/pages/metrics-prometheus.png}
DURATION=${DURATION:-60}
USERS=${USERS:-4}
RATE=${RATE:-100}
for tool in prometheus chromium; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed: apt-get install -y $tool" >&2; exit 1; }
done
# shellcheck source=bench/lib.sh
. bench/lib.sh
out=$(mktemp -d /tmp/metrics-screenshot.XXXXXX)
bench_start_couchdb "$out/node" metricsshot
free_port() { local port; for _ in $(seq 50); do port=$((20000 + RANDOM % 12000)); bench_listens "$port" || break; done; echo "$port"; }
metrics_port=$(free_port)
prometheus_port=$(free_port)
printf '%s' "$COUCH_PASSWORD" >"$out/couchdb-password"
sed -e "s|127.0.0.1:9464|127.0.0.1:$metrics_port|; s|127.0.0.1:5984|127.0.0.1:$PORT|" \
  -e "s|/etc/prometheus/couchdb-password|$out/couchdb-password|" deploy/prometheus/prometheus.yml >"$out/prometheus.yml"
prometheus --config.file="$out/prometheus.yml" --storage.tsdb.path="$out/tsdb" \
  --web.listen-address="127.0.0.1:$prometheus_port" >"$out/prometheus.log" 2>&1 &
prometheus_pid=$!
trap 'kill $prometheus_pid 2>/dev/null; bench_stop_couchdb "$out/node"' EXIT
echo "metrics-screenshot: CouchDB at $URL, Prometheus at 127.0.0.1:$prometheus_port, couchbench's metrics on $metrics_port; logs in $out"
run() { # SIMULATION LOG [-D options]
  bench_couch_run 900 "$@" -Dusers="$USERS" -DkeyFile="$out/keys.csv" || { tail -20 "$2" >&2; exit 1; }
}
run CouchSet "$out/couchset.log" -Dduration=10
run CouchGet "$out/couchget.log" -Dduration="$DURATION" -DratePerConnection="$RATE" -Dmetrics.port="$metrics_port"
# Two panels, the last 3 minutes: requests a second (couchbench's, by outcome, and CouchDB's own, which counts the
# warm-up and the keys' writes too), and the p99 a 10 s window of couchbench's histogram gives.
panel() { # INDEX EXPR
  printf 'g%s.expr=%s&g%s.tab=0&g%s.range_input=3m&g%s.stacked=0&' "$1" "$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$2")" "$1" "$1" "$1"
}
query=$(panel 0 'sum by (request, status) (rate(couchbench_requests_total{request!~"warm-up.*"}[5s])) or label_replace(sum(rate(couchdb_httpd_requests_total[5s])), "couchdb", "httpd requests, its own count", "", "")')
query+=$(panel 1 'histogram_quantile(0.99, sum by (le, request) (rate(couchbench_request_duration_seconds_bucket{request!~"warm-up.*"}[10s])))')
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1650 --virtual-time-budget=15000 \
  --screenshot="$(realpath -m "$shot")" "http://127.0.0.1:$prometheus_port/graph?${query%&}" >"$out/chromium.log" 2>&1
echo "metrics-screenshot: $shot ($(grep -c . "$out/couchget.log") lines of the run's log in $out/couchget.log)"
