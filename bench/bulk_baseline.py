#!/usr/bin/env python3
"""BulkInsert's steps sent by a plain Python client (a benchmark, not a test; see docs/benchmarks.md).

For each thread count T and batch size B: a fresh database, then T threads, each with its own
keep-alive http.client connection, send ceil(N/(B*T)) POST /db/_bulk_docs requests of B empty
documents one after the other, every "ok":true of each reply counted. Prints the same CSV as
BulkBaseline: docs/s timed from the first thread's start to the last thread's end, then the CPU
seconds of this process (user, system) and of the server process SERVER_PID, if set, in the step.

  bench/bulk_baseline.py http://127.0.0.1:5985 1,64,1024 1,2 8192
  COUCHDB_USER=admin COUCHDB_PASSWORD=... SERVER_PID=1234 bench/bulk_baseline.py ...
"""
import base64, http.client, json, os, sys, threading, time, urllib.parse

url = urllib.parse.urlsplit(sys.argv[1])
batch_sizes, thread_counts = ([int(x) for x in arg.split(",")] for arg in sys.argv[2:4])
docs = int(sys.argv[4])
headers = {"Content-Type": "application/json", "Accept": "application/json"}
if os.environ.get("COUCHDB_USER"):
    login = os.environ["COUCHDB_USER"] + ":" + os.environ.get("COUCHDB_PASSWORD", "")
    headers["Authorization"] = "Basic " + base64.b64encode(login.encode()).decode()


def request(conn, method, path, body=None):
    conn.request(method, path, body, headers)
    reply = conn.getresponse()
    data = reply.read()
    if reply.status not in (200, 201, 202):
        sys.exit(f"{method} {path}: status {reply.status}: {data[:200]!r}")
    return data


def server_cpu():  # utime + stime of /proc/PID/stat, counted after the ')' that ends the name
    if not os.environ.get("SERVER_PID"):
        return None
    with open(f"/proc/{os.environ['SERVER_PID']}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def user(path, body, count, results):
    start = time.perf_counter()  # connecting is inside the clock, as for a Gatling virtual user
    conn = http.client.HTTPConnection(url.hostname, url.port)
    stored = sum(sum(1 for r in json.loads(request(conn, "POST", path, body)) if r.get("ok") is True)
                 for _ in range(count))
    conn.close()
    results.append((start, time.perf_counter(), stored))




def admin(method, path):  # a connection of its own each time: the server closes idle ones
    conn = http.client.HTTPConnection(url.hostname, url.port)
    request(conn, method, path)
    conn.close()


print("B,T,docs,seconds,docs/s,client CPU (s),client user (s),client system (s),client JIT (s),"
      "client GC (s),server CPU (s)")
for threads in thread_counts:
    for batch in batch_sizes:
        database = f"{url.path.rstrip('/')}/couchbench_baseline_py_{time.time_ns()}_b{batch}_t{threads}"
        admin("PUT", database)
        body = json.dumps({"docs": [{}] * batch}, separators=(",", ":")).encode()
        results = []
        workers = [threading.Thread(target=user, args=(database + "/_bulk_docs", body,
                                                       -(-docs // (batch * threads)), results))
                   for _ in range(threads)]
        cpu, served = os.times(), server_cpu()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        cpu_after, served_after = os.times(), server_cpu()
        admin("DELETE", database)
        if len(results) != threads:
            sys.exit("a thread failed: see above")
        seconds = max(r[1] for r in results) - min(r[0] for r in results)
        stored = sum(r[2] for r in results)
        user_s, system_s = cpu_after.user - cpu.user, cpu_after.system - cpu.system
        server = "" if served is None else f"{served_after - served:.2f}"
        print(f"{batch},{threads},{stored},{seconds:.4f},{stored / seconds:.1f},{user_s + system_s:.2f},"
              f"{user_s:.2f},{system_s:.2f},,,{server}", flush=True)
