#!/usr/bin/env bash
# Benchmark, not a test: CouchGet against siege (Debian's package), seed 000's tool, sending the same
# GETs (random ids of one key file, written by CouchSet first) with the same concurrency to one
# pouchdb-server on 127.0.0.1. Rounds are interleaved and their order alternates, so that noise from
# a shared machine falls on both alike. Siege runs as CouchGet's users do: back to back (-b, no delay)
# on kept-alive connections (siege's own default closes the connection after every request).
# See docs/couch-vs-memcache.md.
#
#   bench/couchget-vs-siege.sh
#   ROUNDS=5 USERS=180 SECONDS_PER_RUN=30 PORT=5993 bench/couchget-vs-siege.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
USERS=${USERS:-50}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-20}
PORT=${PORT:-} # empty: a free one

command -v siege >/dev/null || { echo "siege is not installed: apt-get install -y siege" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_start_pouchdb couchget-vs-siege "$PORT"
bench_classpath

keys=$out/couchdb.csv
folder=$(bench_gatling CouchSet "$out/couchset.log" -Dcouchdb.url="$URL" -Dusers=10 -Dduration=10 \
  -DkeyFile="$keys" -Ddatabase=bench)
[ -n "$folder" ] || { tail -20 "$out/couchset.log" >&2; exit 1; }
tail -n +2 "$keys" | sed "s|^|$URL/bench/|" >"$out/urls.txt"
echo "$(wc -l <"$out/urls.txt") documents written by CouchSet; results in $out"
cat >"$out/siegerc" <<RC
connection = keep-alive
protocol = HTTP/1.1
json_output = false
show-logfile = false
logging = false
RC

results=$out/results.csv
echo "round,tool,transactions,failed,elapsed s,trans/s,concurrency,response time ms" >"$results"

# Response time as concurrency / rate for both tools (Little's law, which is how siege's
# concurrency is defined): siege prints its mean response time to 10 ms only.
couchget() { # round
  local log=$out/couchget-$1.log
  folder=$(bench_gatling CouchGet "$log" -Dcouchdb.url="$URL" -Dusers="$USERS" -Dduration="$SECONDS_PER_RUN" \
    -DkeyFile="$keys" -Ddatabase=bench)
  [ -n "$folder" ] || { tail -20 "$log" >&2; exit 1; }
  awk -F, -v r="$1" 'NR == 2 { printf "%s,CouchGet,%s,%s,%s,%s,%s,%.2f\n", r, $2, $10, $4, $6, $8, 1000 * $8 / $6 }' \
    "$folder/siege-s-figures.csv" >>"$results"
}

siege_run() { # round
  local log=$out/siege-$1.log
  timeout "$LIMIT" siege -R "$out/siegerc" -b -i -c "$USERS" -t "${SECONDS_PER_RUN}S" -f "$out/urls.txt" >"$log" 2>&1 || true
  awk -v r="$1" '
    /^Transactions:/ { t = $2 } /^Elapsed time:/ { e = $3 } /^Transaction rate:/ { rate = $3 }
    /^Concurrency:/ { c = $2 } /^Failed transactions:/ { f = $3 }
    END { if (t == "") exit 1; printf "%s,siege,%s,%s,%s,%s,%s,%.2f\n", r, t, f, e, rate, c, 1000 * c / rate }' \
    "$log" >>"$results" || { tail -20 "$log" >&2; exit 1; }
}

for round in $(seq "$ROUNDS"); do
  if [ $((round % 2)) -eq 1 ]; then couchget "$round"; siege_run "$round"; else siege_run "$round"; couchget "$round"; fi
  echo "round $round of $ROUNDS done"
done

column -s, -t "$results"
awk -F, 'NR > 1 { tps[$2] = tps[$2] " " $6; ms[$2] = ms[$2] " " $8; if ($2 == "CouchGet") g[$1] = $6; else s[$1] = $6 }
  END { for (tool in tps) print tool ": trans/s" tps[tool] "; response time ms" ms[tool]
        printf "CouchGet / siege, trans/s by round:"; for (r = 1; r in g; r++) printf " %.2f", g[r] / s[r]; print "" }' "$results"
