# Shared by the bench/ scripts (sourced, not run): a private pouchdb-server on 127.0.0.1, and the
# test classpath for running Gatling without Maven's start-up. The scripts use only servers they start
# themselves, on a free port unless PORT names one (nothing may listen there yet): never a CouchDB or
# memcache server of the machine's, on its default port or elsewhere.

LIMIT=${LIMIT:-300} # seconds any one command may take: a script stays bounded even if something hangs
# SERVER_CPUS=1 CLIENT_CPUS=0: pin the server and the load generators to separate cores (taskset), so
# that neither takes CPU from the other, as when the load comes from another machine.
SERVER_PIN=${SERVER_CPUS:+taskset -c $SERVER_CPUS}
CLIENT_PIN=${CLIENT_CPUS:+taskset -c $CLIENT_CPUS}
POUCHDB_BIN=$PWD/target/pouchdb-server/node_modules/pouchdb-server/bin/pouchdb-server
# Passed to every Gatling run: a run the script forgot to give a target starts its own server rather than
# use one it finds on 5984 or 21201.
ONLY_GIVEN_TARGETS=-Dcouchbench.defaultPorts=false
# As the pom's gatling-maven-plugin gives every simulation's JVM (its jvmArgs): no sampling of the JVM's perf data.
LOADGEN_FLAGS="-XX:-UsePerfData"

# bench_start_pouchdb NAME [PORT]: a temporary folder in $out, pouchdb-server answering on $URL,
# stopped (and its data removed) when the script exits.
bench_start_pouchdb() {
  bench_out "$1" "${2:-}"
  bench_serve_pouchdb "$PORT"
}

# bench_serve_pouchdb PORT: pouchdb-server on $URL, its data in $out/data; see bench_serve.
bench_serve_pouchdb() {
  if [ ! -f "$POUCHDB_BIN" ]; then
    echo "pouchdb-server is not installed under target/pouchdb-server: run 'mvn verify' first" >&2
    exit 1
  fi
  mkdir "$out/data"
  # pouchdb-server writes config.json and log.txt to its working directory: run it in the data directory.
  bench_serve pouchdb-server sh -c 'cd "$1" && exec $2 node "$3" --port "$4" --host 127.0.0.1 -n --dir "$1"' \
    sh "$out/data" "$SERVER_PIN" "$POUCHDB_BIN" "$1"
}

# bench_listens PORT: whether something accepts connections on 127.0.0.1:PORT.
bench_listens() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# bench_out NAME [PORT]: $PORT and $URL on that port, or on a free one when PORT is empty (nothing may
# listen there yet), and a temporary folder in $out.
bench_out() {
  PORT=${2:-}
  if [ -z "$PORT" ]; then
    # Below Linux's ephemeral range (32768-60999), where outgoing connections take their ports.
    for _ in $(seq 50); do
      PORT=$((20000 + RANDOM % 12000))
      bench_listens "$PORT" || break
    done
  fi
  URL=http://127.0.0.1:$PORT
  if bench_listens "$PORT"; then
    echo "something already listens on 127.0.0.1:$PORT: choose another PORT, or leave it empty for a free one" >&2
    exit 1
  fi
  out=$(mktemp -d "/tmp/$1.XXXXXX")
  mkdir "$out/reports"
}

# bench_serve NAME COMMAND...: starts a server in the background, logging to $out/server.log, waits
# until $URL answers, and stops it when the script exits, removing $out/data and whatever
# $bench_remove names (paths, globs allowed).
bench_serve() {
  local name=$1
  shift
  "$@" >"$out/server.log" 2>&1 &
  server=$!
  # wait returns the server's 143 (SIGTERM), which set -e would make the script's exit status.
  # shellcheck disable=SC2086 # $bench_remove is meant to expand
  trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; rm -rf "$out/data" ${bench_remove:-}' EXIT
  for _ in $(seq 60); do curl -s -o /dev/null "$URL" && break; sleep 0.5; done
  curl -s -o /dev/null "$URL" || { echo "$name did not answer on $URL; see $out/server.log" >&2; exit 1; }
}

# bench_classpath: compiles, then sets $classpath to the test classpath.
bench_classpath() {
  timeout "$LIMIT" mvn -q -B test-compile >>"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
  timeout "$LIMIT" mvn -q -B dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$out/classpath" >>"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
  classpath="target/classes:target/test-classes:$(cat "$out/classpath")"
}

# bench_loadgen_flags SIMULATION: LOADGEN_FLAGS, with what the pom's profiles add for the simulation: C1 only at a
# tenth of the compile thresholds for BulkInsert, io_uring for MemGet and MemSet.
bench_loadgen_flags() {
  case $1 in
    BulkInsert) echo "$LOADGEN_FLAGS -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.1" ;;
    MemGet | MemSet) echo "$LOADGEN_FLAGS -Dgatling.netty.useIoUring=true" ;;
    *) echo "$LOADGEN_FLAGS" ;;
  esac
}

# bench_gatling SIMULATION LOG -Dname=value...: one run as the Gatling plugin runs it (same flags and opens,
# same main class), results under $out/reports; prints the run folder its summary names, if any.
bench_gatling() {
  local simulation=$1 log=$2
  shift 2
  # shellcheck disable=SC2086,SC2046 # the flags are words
  timeout "$LIMIT" $CLIENT_PIN java $(bench_loadgen_flags "$simulation") --add-opens=java.base/java.lang=ALL-UNNAMED \
    --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED -Xmx1G -cp "$classpath" "$ONLY_GIVEN_TARGETS" "$@" \
    -Dcouchbench.reports="$out/reports" \
    io.gatling.app.Gatling --simulation "$simulation" --results-folder "$out/reports" >"$log" 2>&1 || true
  sed -n 's|^couchbench: summary: \(.*\)/summary.html$|\1|p' "$log" | tail -1
}

# bench_start_memcached NAME [PORT]: a temporary folder in $out and a memcached on PORT or a free
# loopback port, one worker thread (-t 1) and 2 GB, as $SERVER (host:port); stopped when the script exits.
# With TLS=1 it also serves TLS (-Z, a self-signed certificate for 127.0.0.1 made by openssl, $TLS_CERT): TLS on
# PORT as $TLS_SERVER, plain text on the port after it as $SERVER.
bench_start_memcached() {
  bench_out "$1" "${2:-}"
  SERVER=127.0.0.1:$PORT
  local listen=(-l 127.0.0.1)
  if [ "${TLS:-0}" = 1 ]; then
    TLS_CERT=$out/memcached-cert.pem
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$out/memcached-key.pem" -out "$TLS_CERT" -days 2 \
      -subj "/CN=couchbench bench" -addext "subjectAltName=IP:127.0.0.1" 2>/dev/null
    TLS_SERVER=$SERVER
    SERVER=127.0.0.1:$((PORT + 1))
    listen=(-Z -o "ssl_chain_cert=$TLS_CERT,ssl_key=$out/memcached-key.pem" -l "$TLS_SERVER,notls:$SERVER")
  fi
  $SERVER_PIN memcached -u root "${listen[@]}" -p "$PORT" -m 2048 -t 1 >"$out/server.log" 2>&1 &
  server=$!
  if [ "${TLS:-0}" = 1 ]; then echo "memcached: TLS on $TLS_SERVER (certificate $TLS_CERT), plain text on $SERVER"; fi
  trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT
  for _ in $(seq 40); do bench_listens "$PORT" && return; sleep 0.25; done
  echo "memcached did not answer on $SERVER; see $out/server.log" >&2
  exit 1
}

# bench_threads PID: one line per thread of PID: its name without the trailing number (spaces as _), its id,
# its user and system ticks, its voluntary context switches, and its time on a CPU in ns (schedstat).
bench_threads() {
  # One grep and one awk for all threads: a fork per thread took 5 s for a JVM's 25 threads here, longer than
  # some runs had left, and skewed the window. A thread may end between the listing and the reading (the JIT's
  # compiler threads come and go): grep then fails, which must not end the script.
  { grep -H '' /proc/"$1"/task/*/comm /proc/"$1"/task/*/stat /proc/"$1"/task/*/schedstat || true
    grep -H '^voluntary_ctxt' /proc/"$1"/task/*/status || true; } 2>/dev/null |
    awk '{ split($0, path, "/"); tid = path[5]; line = $0; sub(/^[^:]*:/, "", line) }
      path[6] ~ /^comm:/ { name[tid] = line }
      path[6] ~ /^stat:/ { sub(/.*\) /, "", line); split(line, f, " "); utime[tid] = f[12]; stime[tid] = f[13] }
      path[6] ~ /^schedstat:/ { split(line, f, " "); ran[tid] = f[1] }
      path[6] ~ /^status:/ { split(line, f, /[ \t]+/); switches[tid] = f[2] }
      END { for (t in utime) if (t in name) { n = name[t]; sub(/[-#]*[0-9]*$/, "", n); gsub(/ /, "_", n)
                                             print n, t, utime[t], stime[t], switches[t] + 0, ran[t] + 0 } }'
}

# bench_per_request NAME SECONDS BEFORE AFTER: from two snapshots of bench_threads, each ending with a line
# "requests - N 0 0" (N counted by the server), the CPU per request in all and by thread group, in us. Only
# threads in both snapshots count: one that started or ended in between has no difference to give. A thread's
# CPU is its time on a CPU (schedstat, in ns), split into user and system as its ticks are: the ticks alone
# (1/100 s each, rounded per thread) put a whole tick on a thread that ran for a moment, which at B=1024's 50-80
# requests a window was 125-200 us per request a thread. Without schedstat, the ticks.
bench_per_request() {
  awk -v name="$1" -v seconds="$2" 'FNR == 1 { file++ }
    file == 1 { u0[$2] = $3; k0[$2] = $4; v0[$2] = $5; r0[$2] = $6; next }
    $2 in u0 { u[$1] += $3 - u0[$2]; k[$1] += $4 - k0[$2]; v[$1] += $5 - v0[$2]; r[$1] += $6 - r0[$2]; ran += $6 - r0[$2] }
    END {
      n = u["requests"]; printf "%s: %d requests in %d s (%d/s)\n", name, n, seconds, n / seconds
      if (n <= 0) exit
      for (t in u) if (t != "requests") {
        ticks = u[t] + k[t]
        if (ran > 0) { cpu = r[t] / 1000; us_user[t] = ticks > 0 ? cpu * u[t] / ticks : cpu; us_system[t] = cpu - us_user[t] }
        else { us_user[t] = 1e4 * u[t]; us_system[t] = 1e4 * k[t] } # ticks are 1/100 s (CLK_TCK)
        all += us_user[t] + us_system[t]
      }
      printf "  %-24s user+system %8.2f us  per request\n", "all threads", all / n
      for (t in u) if (t != "requests" && (us_user[t] + us_system[t] >= 0.005 * n || v[t] > 100))
        printf "  %-24s user %8.2f us  system %8.2f us  voluntary switches %.3f  per request\n", t, us_user[t] / n, us_system[t] / n, v[t] / n
    }' <(echo "$3") <(echo "$4")
}

# bench_medians FILE: the lines of bench_per_request, runs named CLIENT-ROUND SCENARIO: each client and scenario's
# median over the rounds, with the smallest and largest, of its rate and of its CPU per request, in all and by
# thread group; then each round's "all threads" figure over that of the client MINIMAL (if set), by round.
bench_medians() {
  awk -v minimal="${MINIMAL_CLIENT:-}" -f bench/stats.awk -f /dev/stdin "$1" <<'AWK'
    /^[^ ].*: [0-9]+ requests in [0-9]+ s/ { split($1, cr, "-"); client = cr[1]; round = cr[2]; run = $0; sub(/^[^ ]+ /, "", run)
      sub(/: [0-9]+ requests.*/, "", run); key = client " " run; rate[key] = rate[key] " " $(NF - 5) / $(NF - 2)
      clients[client] = 1; runs[run] = 1; if (round > rounds) rounds = round; next }
    /^  all threads/ { us[key " all threads"] = us[key " all threads"] " " $4; all[client, round, run] = $4; next }
    /^  / { us[key " " $1] = us[key " " $1] " " ($3 + $6) }
    END {
      for (k in rate) printf "%s: requests/s %.1f (%s)\n", k, median(rate[k]), spread(rate[k]) | "sort"
      for (k in us) printf "%s: us CPU per request %.2f (%s)\n", k, median(us[k]), spread(us[k]) | "sort"
      close("sort")
      if (minimal != "") for (c in clients) if (c != minimal) for (r in runs) {
        list = ""; for (i = 1; i <= rounds; i++) if (all[minimal, i, r] > 0 && all[c, i, r] > 0) list = list sprintf(" %.2f", all[c, i, r] / all[minimal, i, r])
        if (list != "") printf "CPU per request, %s / %s, %s, by round:%s; median %.2f\n", c, minimal, r, list, median(list)
      }
    }
AWK
}

# bench_start_couchdb DIR NAME: a fresh Apache CouchDB 3.5 node (../shared/couchdb/, unpacked into target/, or
# COUCHDB_HOME naming an unpacked release) with its data in DIR, on a free loopback port, admin login
# COUCH_PASSWORD (made up once per script); sets URL and couch (the server's pid: bin/couchdb execs the VM).
bench_start_couchdb() {
  local dir=$1 name=$2 tarball=../shared/couchdb/apache-couchdb-3.5.0-debian12-amd64.tar.gz
  local release=${COUCHDB_HOME:-$PWD/target/couchdb-3.5.0/couchdb}
  if [ ! -x "$release/bin/couchdb" ]; then
    [ -f "$tarball" ] || { echo "no Apache CouchDB 3.5 here ($tarball, or COUCHDB_HOME naming an unpacked release)" >&2; exit 1; }
    mkdir -p target/couchdb-3.5.0 && tar -xzf "$tarball" -C target/couchdb-3.5.0
  fi
  COUCH_PASSWORD=${COUCH_PASSWORD:-bench-$RANDOM$RANDOM}
  mkdir -p "$dir/data"
  # A free port for this node, below Linux's ephemeral range, as bench_out picks one.
  for _ in $(seq 50); do PORT=$((20000 + RANDOM % 12000)); bench_listens "$PORT" || break; done
  URL=http://127.0.0.1:$PORT
  printf '[couchdb]\nsingle_node = true\njs_engine = quickjs\ndatabase_dir = %s\nview_index_dir = %s\n[chttpd]\nbind_address = 127.0.0.1\nport = %s\n[admins]\nadmin = %s\n[log]\nlevel = warning\n' \
    "$dir/data" "$dir/data" "$PORT" "$COUCH_PASSWORD" >"$dir/local.ini"
  # More of its configuration, e.g. the [nouveau] section bench_start_nouveau gives.
  printf '%s' "${COUCH_MORE_INI:-}" >>"$dir/local.ini"
  printf -- '-name bench%s@127.0.0.1\n-setcookie bench%s\n+Bd -noinput\n-kernel inet_dist_use_interface {127,0,0,1}\n' "$name" "$RANDOM" >"$dir/vm.args"
  COUCHDB_INI_FILES="$release/etc/default.ini $dir/local.ini" COUCHDB_ARGS_FILE=$dir/vm.args \
    $SERVER_PIN "$release/bin/couchdb" >"$dir/couchdb.log" 2>&1 &
  couch=$!
  for _ in $(seq 60); do curl -sf "$URL/_up" >/dev/null && return; sleep 0.5; done
  echo "CouchDB did not answer on $URL; see $dir/couchdb.log" >&2
  exit 1
}

# bench_start_nouveau DIR: CouchDB 3.5.0's Nouveau server (../shared/couchdb/'s nouveau dist, unpacked under
# target/ once) on free loopback ports, its indexes in DIR; sets COUCH_MORE_INI for bench_start_couchdb to use it and
# $nouveau to its pid (bin/nouveau execs the JVM). Stop it with bench_stop_nouveau.
bench_start_nouveau() {
  local dir=$1 tarball=../shared/couchdb/nouveau-3.5.0-dist.tar.gz dist=$PWD/target/nouveau-3.5.0/nouveau-dist
  if [ ! -x "$dist/bin/nouveau" ]; then
    [ -f "$tarball" ] || { echo "no Nouveau server here ($tarball)" >&2; exit 1; }
    mkdir -p target/nouveau-3.5.0 && tar -xzf "$tarball" -C target/nouveau-3.5.0
  fi
  local port admin
  for _ in $(seq 50); do port=$((20000 + RANDOM % 12000)); bench_listens "$port" || break; done
  for _ in $(seq 50); do admin=$((20000 + RANDOM % 12000)); bench_listens "$admin" || break; done
  mkdir -p "$dir/indexes"
  NOUVEAU_INDEX_DIR=$dir/indexes NOUVEAU_PORT=$port NOUVEAU_ADMIN_PORT=$admin \
    JAVA_OPTS="-Ddw.logging.level=WARN ${NOUVEAU_JAVA_OPTS:-}" $SERVER_PIN "$dist/bin/nouveau" >"$dir/nouveau.log" 2>&1 &
  nouveau=$!
  COUCH_MORE_INI=$(printf '[nouveau]\nenable = true\nurl = http://127.0.0.1:%s\n' "$port")
  for _ in $(seq 120); do curl -sf "http://127.0.0.1:$admin/healthcheck" >/dev/null && return; sleep 0.5; done
  echo "the Nouveau server did not answer on port $admin; see $dir/nouveau.log" >&2
  exit 1
}

# bench_stop_nouveau DIR: stops the server bench_start_nouveau started, and removes its indexes.
bench_stop_nouveau() {
  kill "$nouveau" 2>/dev/null; wait "$nouveau" 2>/dev/null || true
  rm -rf "$1/indexes"
}

# bench_couch_run SECONDS SIMULATION LOG [-D options]: `mvn gatling:test` of SIMULATION against the node
# bench_start_couchdb started (its admin login; the password from COUCHDB_PASSWORD in the environment, out of ps),
# its output in LOG, stopped after SECONDS; returns the run's exit code.
bench_couch_run() {
  local limit=$1 simulation=$2 log=$3
  shift 3
  COUCHDB_PASSWORD=$COUCH_PASSWORD timeout "$limit" mvn -q -B gatling:test -Dsimulation="$simulation" \
    -Dcouchdb.url="$URL" -Dcouchdb.user=admin "$@" >"$log" 2>&1
}

# bench_stop_couchdb DIR: stops the node bench_start_couchdb started, and removes its data.
bench_stop_couchdb() {
  kill "$couch" 2>/dev/null; wait "$couch" 2>/dev/null || true
  rm -rf "$1/data"
}
