#!/usr/bin/env bash
# Benchmark, not a test: AttachmentUpload's upload times against curl sending the same bodies to the
# same target, at one size, in one run, interleaved (the order alternates round by round), with the
# Gatling JVM held to -Xmx256m and its peak heap read from its GC log. In a round each client sends
# REPEAT uploads per method (Gatling in one JVM, as a run does: its first uploads also pay for the
# JIT) and the round's figure is their median. See docs/attachments.md.
#
#   bench/attachment-vs-curl.sh                              # 10^9 bytes, against the sink, 3 rounds of 3
#   TARGET=pouchdb EXPONENT=8 ROUNDS=3 REPEAT=1 bench/attachment-vs-curl.sh
#
# TARGET=sink: couchbench.attachment.AttachmentSink, a stand-in that hashes uploads as they stream in
# and stores nothing, so the clients' own costs show (pouchdb-server 4.2.0 runs out of memory at 10^9).
# TARGET=pouchdb: a fresh pouchdb-server. Bodies: data/attachments/1eN.txt (raw), 1eN.base64.json
# (base64), and for curl a multipart file laid out as Gatling's multipart body (same parts, headers
# and boundary). Needs about 3.5 x 10^N bytes of disk at 10^N (plus what the target stores).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=${TARGET:-sink}
EXPONENT=${EXPONENT:-9}
ROUNDS=${ROUNDS:-3}
REPEAT=${REPEAT:-3}
PORT=${PORT:-} # empty: a free one
HEAP=${HEAP:-256m}
LIMIT=1800 # seconds any one command may take
BOUNDARY=couchbench_attachment_boundary

command -v curl >/dev/null || { echo "curl is not installed: apt-get install -y curl" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_out attachment-vs-curl "$PORT"
bench_classpath
bench_remove="$out/*.multipart"
case $TARGET in
  sink) bench_serve AttachmentSink java -cp "$classpath" couchbench.attachment.AttachmentSink "$PORT" ;;
  pouchdb) bench_serve_pouchdb "$PORT" ;;
  *) echo "TARGET=$TARGET: expected sink or pouchdb" >&2; exit 1 ;;
esac

results=$out/results.csv # round,client,method,seconds
echo "round,client,method,seconds" >"$results"
text=data/attachments/1e$EXPONENT.txt

gatling() { # round
  local log=$out/gatling-$1.log report
  timeout "$LIMIT" mvn -q -B gatling:test -Dsimulation=AttachmentUpload -DminExponent="$EXPONENT" \
    -DmaxExponent="$EXPONENT" -Drepeat="$REPEAT" -Dcouchdb.url="$URL" "$ONLY_GIVEN_TARGETS" \
    "-Dgatling.jvmArgs=-Xmx$HEAP,-Xlog:gc:file=$out/gc-$1.log" >"$log" 2>&1 || true
  # The run folder named in this run's own output: other runs may be writing to reports/ meanwhile.
  report=$(sed -n 's|^couchbench: summary: \(.*\)/summary.html$|\1|p' "$log" | tail -1)
  [ -n "$report" ] || { echo "AttachmentUpload wrote no summary; see $log" >&2; exit 1; }
  grep 'failed:' "$log" >&2 || true
  awk -F, -v r="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { print r ",gatling,raw," $col["raw median s"]; print r ",gatling,base64," $col["base64 median s"]
      print r ",gatling,multipart," $col["multipart median s"] }' "$report/upload-times-by-size.csv" >>"$results"
}

send() { # round method url content-type file: one upload by curl; a reply other than 201/202 is an error
  local reply
  reply=$(timeout "$LIMIT" curl -s -o "$out/reply.json" -w '%{http_code} %{time_total}' -T "$5" -X PUT \
    -H "Content-Type: $4" -H 'Expect:' "$3")
  case ${reply%% *} in
    201|202) echo "$1,curl,$2,${reply#* }" >>"$results" ;;
    *) echo "curl $2: $reply $(head -c 200 "$out/reply.json")" >&2 ;;
  esac
}

curls() { # round: the same uploads, the methods taking turns, each to a new document (a database per turn)
  local db rev i
  for i in $(seq "$REPEAT"); do
    db=$URL/couchbench_curl_$1_$i
    curl -s -o /dev/null -X PUT "$db"
    rev=$(curl -s -X PUT -H 'Content-Type: application/json' -d '{}' "$db/raw-curl" | sed -n 's/.*"rev":"\([^"]*\)".*/\1/p')
    send "$1" raw "$db/raw-curl/att?rev=$rev" application/octet-stream "$text"
    send "$1" base64 "$db/base64-curl" application/json "data/attachments/1e$EXPONENT.base64.json"
    send "$1" multipart "$db/multipart-curl" "multipart/related; boundary=$BOUNDARY" "$out/1e$EXPONENT.multipart"
    curl -s -o /dev/null -X DELETE "$db"
  done
}

multipart() { # curl's multipart body: Gatling's layout, the id in the JSON as the URL says
  local length
  length=$(stat -c %s "$text")
  { printf -- '--%s\r\nContent-Disposition: form-data; name="doc"\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n' "$BOUNDARY"
    printf '{"_id":"multipart-curl","_attachments":{"att":{"follows":true,"content_type":"application/octet-stream","length":%s}}}' "$length"
    printf '\r\n--%s\r\nContent-Disposition: attachment; name="att"; filename="att"\r\nContent-Type: application/octet-stream\r\n\r\n' "$BOUNDARY"
    cat "$text"
    printf '\r\n--%s--\r\n' "$BOUNDARY"
  } >"$out/1e$EXPONENT.multipart"
}

started=$SECONDS
for round in $(seq "$ROUNDS"); do
  echo "round $round/$ROUNDS ($((SECONDS - started)) s so far)"
  # Round 1 starts with Gatling, whose data generator writes the bodies curl sends too.
  if [ $((round % 2)) -eq 1 ]; then
    gatling "$round"; [ -f "$out/1e$EXPONENT.multipart" ] || multipart; curls "$round"
  else
    curls "$round"; gatling "$round"
  fi
done

echo
echo "10^$EXPONENT bytes against $TARGET, $ROUNDS rounds of $REPEAT uploads per method and client: seconds"
echo "per upload (median of the rounds' medians) and AttachmentUpload / curl, the median of the rounds'"
echo "own ratios and their range."
awk -F, -f bench/stats.awk -f /dev/stdin "$results" <<'AWK'
  # Gatling's rows are already its run's medians; curl's are single uploads.
  NR > 1 && $4 != "" { v[$1, $2, $3] = v[$1, $2, $3] " " $4; rounds[$1] = 1 }
  END {
    printf "%-10s %10s %10s %8s %12s\n", "method", "gatling", "curl", "ratio", "range"
    split("raw base64 multipart", methods, " ")
    for (m = 1; m <= 3; m++) {
      method = methods[m]; r = ""; g = ""; c = ""
      for (x in rounds) if (v[x, "gatling", method] != "" && v[x, "curl", method] != "") {
        gm = median(v[x, "gatling", method]); cm = median(v[x, "curl", method])
        g = g " " gm; c = c " " cm; r = r " " gm / cm
      }
      if (r == "") { printf "%-10s %10s\n", method, "no figures (see the failures above)"; continue }
      printf "%-10s %10.3f %10.3f %8.3f %12s\n", method, median(g), median(c), median(r), spread(r)
    }
  }
AWK
peak=$(cat "$out"/gc-*.log | sed -n 's/.* \([0-9]*\)M->[0-9]*M(\([0-9]*\)M).*/\1 \2/p' | sort -n | tail -1)
echo "Gatling JVM (-Xmx$HEAP): peak heap used before a collection ${peak% *} MB, of ${peak#* } MB committed, over all rounds"
echo "(data check and generation included); GC logs and every figure: $out ($((SECONDS - started)) s in all)"
