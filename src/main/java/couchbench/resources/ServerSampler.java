package couchbench.resources;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchAuth;
import couchbench.couchdb.CouchReply;
import couchbench.results.ServerReading;
import couchbench.results.ServerSeries;
import couchbench.startup.RunClock;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import couchbench.targets.MemcacheTarget;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The servers' own figures once a second during the load (and during Search's index builds, with figures of the
 * caller's: {@link Probe}), on a thread of its own, by clients of its own (none of its
 * requests is one of the load's): each CouchDB node's {@code _node/_local/_stats} and {@code _system}, the memcache
 * servers' {@code stats}, the CPU and resident memory of each server process on this machine (the loaded servers' and
 * the others the load names, such as Nouveau's), and the load
 * generator's own CPU and heap. Counters become rates a second; a figure that cannot be read in a second is a gap
 * there, and a note says why. Each of a node's two reads and the /proc figures can be read less often, or not at all
 * ({@link Cadence}, -DsampleServers.statsEvery, systemEvery, processEvery), to weigh each one's cost on the server
 * (bench/sampler-reads.sh; on a quiet machine none was measurable, docs/benchmarks.md), and the page then says so.
 */
public final class ServerSampler {

  private static final Duration EVERY = Duration.ofSeconds(1);
  private static final Duration MEMCACHE_WAIT = Duration.ofMillis(900);
  private static final double MB = 1024 * 1024;
  private static final Duration LOOK_AGAIN = Duration.ofSeconds(3);
  private static final Path PROC = Path.of("/proc");

  /**
   * One second's raw figures: gauges as they are, counters as running totals that become rates, each with when its
   * source was read (a slow source makes the next one's reading later than the second's start).
   */
  private static final class Reading {
    final long tick;
    final Map<String, Integer> countersEvery = new HashMap<>();
    final Map<String, Double> gauges = new LinkedHashMap<>();
    final Map<String, Double> counters = new LinkedHashMap<>();
    final Map<String, Long> countersReadAt = new HashMap<>();
    final List<ServerReading> live = new ArrayList<>();
    private final List<String> unstamped = new ArrayList<>();

    Reading(long tick) {
      this.tick = tick;
    }

    /**
     * A running total, charted as its rate a second.
     *
     * @param figure its column and series
     * @param total its total, in base units (e.g. CPU seconds)
     */
    void counter(Figure figure, double total) {
      counter(figure, total, 1);
    }

    /**
     * A running total read every few seconds, charted as its rate a second over them.
     *
     * @param figure its column and series
     * @param total its total, in base units
     * @param every the seconds between its readings
     */
    void counter(Figure figure, double total, int every) {
      countersEvery.put(figure.column(), every);
      counters.put(figure.column(), total * figure.toPage());
      unstamped.add(figure.column());
      live.add(new ServerReading(figure.metric(), figure.server(), total, true));
    }

    /**
     * A value as it is.
     *
     * @param figure its column and series
     * @param value its value, in base units (e.g. bytes)
     */
    void gauge(Figure figure, double value) {
      gauges.put(figure.column(), value * figure.toPage());
      live.add(new ServerReading(figure.metric(), figure.server(), value, false));
    }

    // A source's counters are the server's when it answered: a server that stalls answers late, with the stall in.
    void stamp(long answeredAt) {
      unstamped.forEach(name -> countersReadAt.put(name, answeredAt));
      unstamped.clear();
    }
  }

  /**
   * A figure a source reads: its column on the page (a counter's as a rate a second) and its series in live metrics.
   *
   * @param server what gives it, e.g. "couchdb"
   * @param figure what it is on the page, e.g. "erlang memory"
   * @param unit its unit on the page, e.g. "MB" (a counter's: a rate, e.g. "/s")
   * @param metric its series' name in live metrics, base units, e.g. "erlang_memory_bytes"
   * @param toPage what its base-unit value is multiplied by for the page, e.g. 1 / 2^20 for MB
   */
  private record Figure(String server, String figure, String unit, String metric, double toPage) {

    Figure(String server, String figure, String unit, String metric) {
      this(server, figure, unit, metric, 1);
    }

    String column() {
      return server + " " + figure + " (" + unit + ")";
    }
  }

  /** Where figures come from; what it cannot read it leaves out, and says why in its notes. */
  private interface Source extends AutoCloseable {
    void read(Reading reading);

    @Override
    default void close() {}
  }

  /**
   * How often each of a CouchDB node's reads and a local server process's figures are read, in seconds of the
   * sampler's tick; 0 reads it never (to weigh one read's cost on the server: -DsampleServers.statsEvery=0, ...).
   *
   * @param stats {@code GET /_node/_local/_stats/couchdb}: its request and database counters, open databases and files
   * @param system {@code GET /_node/_local/_system}: Erlang processes, run queue, messages queued, Erlang memory
   * @param process a local server process's CPU and resident memory, from /proc
   */
  public record Cadence(int stats, int system, int process) {

    /** Every read every second. */
    public static final Cadence EVERY_SECOND = new Cadence(1, 1, 1);

    static boolean due(int every, long tick) {
      return every > 0 && tick % every == 0;
    }
  }

  /**
   * A figure the caller reads itself, each second beside the servers' (Search's index documents while it builds), kept
   * as it is: its column is "SERVER FIGURE (UNIT)", e.g. "index documents (count)".
   *
   * @param server what gives it, e.g. "index"
   * @param figure what it is, e.g. "documents"
   * @param unit its unit, e.g. "count"
   * @param metric its series' name in live metrics, e.g. "search_index_documents"
   * @param read its value now; empty when it cannot be read that second (a gap)
   */
  public record Probe(String server, String figure, String unit, String metric, Supplier<OptionalDouble> read) {}

  private final Map<String, Source> sources = new LinkedHashMap<>();
  private final Cadence cadence;
  private long tick;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(task -> {
    Thread sampling = new Thread(task, "couchbench-server-sampler");
    sampling.setDaemon(true);
    return sampling;
  });
  private final List<String> columns = new ArrayList<>();
  private final Map<String, Integer> columnIndex = new HashMap<>();
  private final List<ServerSeries.Sample> samples = new ArrayList<>();
  private final Map<String, double[]> lastCounters = new HashMap<>();
  private final Notes notes = new Notes();
  private volatile boolean stopping;
  private volatile List<ServerReading> latest = List.of();

  private ServerSampler(Cadence cadence) {
    this.cadence = cadence;
  }

  /**
   * Starts sampling now, then on every whole second of the run's clock ({@link RunClock}), which stamps the samples.
   *
   * @param couchdb the CouchDB server loaded, each of its nodes sampled; empty for none
   * @param memcache the memcache servers loaded
   * @return the running sampler
   */
  public static ServerSampler start(Optional<CouchTarget> couchdb, List<MemcacheTarget> memcache) {
    return start(couchdb, memcache, List.of(), Cadence.EVERY_SECOND);
  }

  /**
   * @param couchdb the CouchDB server loaded, each of its nodes sampled; empty for none
   * @param memcache the memcache servers loaded
   * @param others other server processes on this machine that the load uses (Search's Nouveau server): their CPU
   *     and resident memory, named by {@link LocalServer#name()}
   * @param cadence how often each read is made
   * @return the running sampler
   */
  public static ServerSampler start(Optional<CouchTarget> couchdb, List<MemcacheTarget> memcache,
      List<LocalServer> others, Cadence cadence) {
    return start(couchdb, memcache, others, List.of(), cadence);
  }

  /**
   * @param couchdb the CouchDB server loaded, each of its nodes sampled; empty for none
   * @param memcache the memcache servers loaded
   * @param others other server processes on this machine: their CPU and resident memory, named by
   *     {@link LocalServer#name()}
   * @param probes figures the caller reads itself, each second after the servers'
   * @param cadence how often each read is made
   * @return the running sampler
   */
  public static ServerSampler start(Optional<CouchTarget> couchdb, List<MemcacheTarget> memcache,
      List<LocalServer> others, List<Probe> probes, Cadence cadence) {
    ServerSampler sampler = new ServerSampler(cadence);
    Map<String, Source> sources = sampler.sources;
    couchdb.ifPresent(target -> {
      sampler.noteCadence("each CouchDB node's GET /_node/_local/_stats/couchdb (httpd requests, database reads and"
          + " writes, open databases and files)", cadence.stats(), "statsEvery");
      sampler.noteCadence("each CouchDB node's GET /_node/_local/_system (Erlang processes, run queue, messages queued,"
          + " Erlang memory)", cadence.system(), "systemEvery");
    });
    if (couchdb.isPresent() || !memcache.isEmpty() || !others.isEmpty()) {
      sampler.noteCadence("the local server processes' CPU and resident memory (/proc)", cadence.process(), "processEvery");
    }
    couchdb.ifPresent(target -> {
      List<String> urls = target.nodes().urls();
      for (String url : urls) {
        String name = couchNodeName(urls, url);
        sources.put(name, sampler.couchNode(target.node(url), name));
      }
      sources.put("couchdb's process", sampler.processes(() -> ServerProcess.of(target).stream().toList(), true,
          cadence.process()));
    });
    for (MemcacheTarget target : memcache) {
      String name = "memcache stats" + (sources.containsKey("memcache stats") ? " " + target.describe() : "");
      sources.put(name, sampler.memcache(target));
      sources.put(name.replace("stats", "processes"), sampler.processes(() -> ServerProcess.of(target), false,
          cadence.process()));
    }
    // Not looked for again: gone (restarted), its columns are empty from then on.
    for (LocalServer other : others) {
      sources.put(other.name() + "'s process", sampler.processes(() -> List.of(other), true, cadence.process()));
    }
    sources.put("the load generator", sampler.loadGenerator());
    for (Probe probe : probes) {
      Figure figure = new Figure(probe.server(), probe.figure(), probe.unit(), probe.metric());
      sources.put(figure.column(), reading -> probe.read().get().ifPresent(value -> reading.gauge(figure, value)));
    }
    long toNextSecond = EVERY.toMillis() - Math.floorMod(RunClock.millis(), EVERY.toMillis());
    sampler.thread.scheduleAtFixedRate(sampler::sample, toNextSecond, EVERY.toMillis(), TimeUnit.MILLISECONDS);
    return sampler;
  }

  /**
   * @param urls the URLs of every CouchDB node sampled
   * @param url one of them
   * @return the name its columns start with: "couchdb" for one node, "couchdb 127.0.0.1:5984" for one of several
   */
  public static String couchNodeName(List<String> urls, String url) {
    return urls.size() == 1 ? "couchdb" : "couchdb " + URI.create(url).getAuthority();
  }

  // A read not made every second says so on the page: a gauge read every 5 s is that second's, the seconds between
  // empty; a counter's rate is the mean over the seconds since its last reading.
  private void noteCadence(String read, int every, String setting) {
    if (every == 0) {
      notes.cadence(read + ": not read (-DsampleServers." + setting + "=0)");
    } else if (every > 1) {
      notes.cadence(read + ": read every " + every + " s, not every second: a gauge is the second it was read in (the"
          + " seconds between are empty), a rate the mean over the " + every + " s before it");
    }
  }

  /** @return what was sampled, once the sampling has stopped */
  public ServerSeries stop() {
    // The sample under way ends as it would; only one stuck on a server is interrupted.
    stopping = true;
    thread.shutdown();
    try {
      if (!thread.awaitTermination(3, TimeUnit.SECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sources.values().forEach(Source::close);
    synchronized (this) {
      List<ServerSeries.Sample> padded = samples.stream().map(sample -> new ServerSeries.Sample(sample.epochMillis(),
          padded(sample.values()))).toList();
      return new ServerSeries(columns, padded, notes.lines());
    }
  }

  private double[] padded(double[] values) {
    return padded(values, columns.size());
  }

  private synchronized void sample() {
    if (stopping) {
      return;
    }
    long now = RunClock.millis();
    Reading reading = new Reading(tick++);
    for (Map.Entry<String, Source> source : sources.entrySet()) {
      try {
        source.getValue().read(reading);
      } catch (RuntimeException e) {
        // One source failing (a /proc scan racing a process's end) must not end the sampling: the executor would
        // cancel every later second.
        notes.missed(source.getKey(), e.toString());
      }
      reading.stamp(RunClock.millis());
    }
    double[] values = new double[0];
    for (Map.Entry<String, Double> gauge : reading.gauges.entrySet()) {
      values = set(values, gauge.getKey(), gauge.getValue());
    }
    // A counter's rate since it was last read, by the times it was read; none after a gap (a rate over more than a
    // second and a half is no one second's), or when it went back (a restart).
    for (Map.Entry<String, Double> counter : reading.counters.entrySet()) {
      long readAt = reading.countersReadAt.get(counter.getKey());
      double[] last = lastCounters.put(counter.getKey(), new double[] {readAt, counter.getValue()});
      long elapsed = last == null ? 0 : readAt - (long) last[0];
      long expected = EVERY.toMillis() * reading.countersEvery.getOrDefault(counter.getKey(), 1);
      boolean rated = last != null && counter.getValue() >= last[1] && elapsed > 0
          && elapsed < expected + EVERY.toMillis() / 2;
      values = set(values, counter.getKey(), rated ? (counter.getValue() - last[1]) * 1000 / elapsed : Double.NaN);
    }
    samples.add(new ServerSeries.Sample(now, values));
    latest = List.copyOf(reading.live);
  }

  /** @return the servers' figures of the last second sampled, for live metrics; none before the first */
  public List<ServerReading> latest() {
    return latest;
  }

  private double[] set(double[] values, String column, double value) {
    int index = columnIndex.computeIfAbsent(column, name -> {
      columns.add(name);
      return columns.size() - 1;
    });
    double[] grown = values.length > index ? values : padded(values, index + 1);
    grown[index] = value;
    return grown;
  }

  private static double[] padded(double[] values, int length) {
    double[] all = Arrays.copyOf(values, length);
    Arrays.fill(all, values.length, length, Double.NaN);
    return all;
  }

  // A CouchDB node: its request and database counters, its open databases and files, its Erlang processes, run queue,
  // message queues and memory.
  private Source couchNode(CouchTarget node, String name) {
    NodeConnection connection = new NodeConnection(node);
    // The counters it charts, by their paths in _stats/couchdb, in the order of the columns.
    Map<String, Figure> counters = new LinkedHashMap<>();
    counters.put("httpd/requests", new Figure(name, "httpd requests", "/s", "couchdb_httpd_requests"));
    counters.put("database_reads", new Figure(name, "database reads", "/s", "couchdb_database_reads"));
    counters.put("database_writes", new Figure(name, "database writes", "/s", "couchdb_database_writes"));
    // _stats calls these two counters too, but they go down as well as up: how many are open now, read as they are.
    Map<String, Figure> gauges = new LinkedHashMap<>();
    gauges.put("open_databases", new Figure(name, "open databases", "count", "couchdb_open_databases"));
    gauges.put("open_os_files", new Figure(name, "open files", "count", "couchdb_open_os_files"));
    List<String> paths = new ArrayList<>(counters.keySet());
    paths.addAll(gauges.keySet());
    return new Source() {
      @Override
      public void read(Reading reading) {
        if (notes.gaveUp(name)) {
          return;
        }
        boolean stats = Cadence.due(cadence.stats(), reading.tick);
        boolean system = Cadence.due(cadence.system(), reading.tick);
        try {
          if (stats) {
            Optional<CouchReply> reply = nodeFigures(connection, node, name, "_stats/couchdb");
            if (reply.isEmpty()) {
              return;
            }
            Map<String, Double> values = StatsCounters.read(reply.get().body(), paths);
            counters.forEach((path, figure) -> Optional.ofNullable(values.get(path))
                .ifPresent(value -> reading.counter(figure, value, cadence.stats())));
            gauges.forEach((path, figure) -> Optional.ofNullable(values.get(path))
                .ifPresent(value -> reading.gauge(figure, value)));
          }
          if (system) {
            Optional<CouchReply> reply = nodeFigures(connection, node, name, "_system");
            if (reply.isEmpty()) {
              return;
            }
            JsonNode figures = CouchResources.json(reply.get().body()).orElseThrow(() -> new IOException(
                "GET /_node/_local/_system at " + node.baseUrl() + " answered something that is not JSON"));
            reading.gauge(new Figure(name, "erlang processes", "count", "erlang_processes"),
                figures.path("process_count").asDouble());
            reading.gauge(new Figure(name, "run queue", "queued", "erlang_run_queue"), figures.path("run_queue")
                .asDouble());
            reading.gauge(new Figure(name, "messages queued", "queued", "erlang_messages_queued"),
                messages(figures.path("message_queues")));
            reading.gauge(new Figure(name, "erlang memory", "MB", "erlang_memory_bytes", 1 / MB),
                CouchResources.erlangMemory(figures));
          }
        } catch (IOException e) {
          notes.missed(name, e.getMessage());
        } catch (RuntimeException e) {
          notes.missed(name, e.getMessage());
        }
      }

      @Override
      public void close() {
        connection.close();
      }
    };
  }

  // A node's GET /_node/_local/<figures>; empty when it has none (pouchdb-server: the node is given up on, its process
  // still read) or did not answer 200 (a second missed).
  private Optional<CouchReply> nodeFigures(NodeConnection connection, CouchTarget node, String name, String figures)
      throws IOException {
    CouchReply reply = connection.get("/_node/_local/" + figures);
    int status = reply.status();
    if (CouchAuth.isRefusal(status)) {
      notes.giveUp(name, name + " refuses the login its node's statistics (they need a server admin): its own figures"
          + " are not read");
      return Optional.empty();
    } else if (status == 404 || status == 400 || status == 405) {
      notes.giveUp(name, name + " at " + node.baseUrl() + " answers GET /_node/_local/" + figures + " with " + status
          + " (pouchdb-server has none): its own figures are not read, only its process's");
      return Optional.empty();
    } else if (status != 200) {
      notes.missed(name, "GET /_node/_local/" + figures + " answered " + status);
      return Optional.empty();
    }
    return Optional.of(reply);
  }

  // The messages waiting at a node's named processes, and for each kind of many (couch_file, couch_db_updater), its
  // longest queue: _system gives their count, min, max and percentiles, not their sum.
  private static double messages(JsonNode queues) {
    double sum = 0;
    for (JsonNode queue : queues) {
      sum += queue.isNumber() ? queue.asDouble() : queue.path("max").asDouble();
    }
    return sum;
  }

  // The memcache servers, summed: gets and sets a second, the bytes they received and sent (the load's on the wire, as
  // memtier reports them), their CPU by their own rusage, the bytes their items hold, their open connections.
  private Source memcache(MemcacheTarget target) {
    MemcacheEnquiries enquiries = new MemcacheEnquiries(target);
    return new Source() {
      @Override
      public void read(Reading reading) {
        try {
          List<Map<String, String>> perServer = MemcacheResources.stats(target, enquiries, MEMCACHE_WAIT);
          MemcacheResources.sum(perServer, "cmd_get").ifPresent(total -> reading.counter(new Figure("memcache",
              "gets", "/s", "memcache_gets"), total.doubleValue()));
          MemcacheResources.sum(perServer, "cmd_set").ifPresent(total -> reading.counter(new Figure("memcache",
              "sets", "/s", "memcache_sets"), total.doubleValue()));
          MemcacheResources.sum(perServer, "bytes_read").ifPresent(total -> reading.counter(new Figure("memcache",
              "bytes received", "bytes/s", "memcache_received_bytes"), total.doubleValue()));
          MemcacheResources.sum(perServer, "bytes_written").ifPresent(total -> reading.counter(new Figure(
              "memcache", "bytes sent", "bytes/s", "memcache_sent_bytes"), total.doubleValue()));
          Optional<BigDecimal> user = MemcacheResources.sum(perServer, "rusage_user");
          Optional<BigDecimal> system = MemcacheResources.sum(perServer, "rusage_system");
          user.flatMap(u -> system.map(u::add)).ifPresent(seconds -> reading.counter(new Figure("memcache", "cpu",
              "% of a core", "memcache_cpu_seconds", 100), seconds.doubleValue()));
          MemcacheResources.sum(perServer, "bytes").ifPresent(stored -> reading.gauge(new Figure("memcache",
              "stored", "MB", "memcache_stored_bytes", 1 / MB), stored.doubleValue()));
          MemcacheResources.sum(perServer, "curr_connections").ifPresent(open -> reading.gauge(new Figure("memcache",
              "connections", "open", "memcache_connections"), open.doubleValue()));
        } catch (RuntimeException e) {
          notes.missed("memcache stats", e.getMessage());
        }
      }

      @Override
      public void close() {
        enquiries.close();
      }
    };
  }

  // The servers' processes on this machine, from /proc: their CPU (unless the servers report their own) and resident
  // memory. A server restarted is another process: it is looked for again (at most every few seconds: it takes a scan
  // of /proc) once one of them is gone.
  private Source processes(Supplier<List<LocalServer>> find, boolean cpu, int every) {
    return new Source() {
      private List<LocalServer> found = every > 0 ? find.get() : List.of();
      private long lookedAt = System.nanoTime();
      private boolean everFound;

      @Override
      public void read(Reading reading) {
        if (!Cadence.due(every, reading.tick)) {
          return;
        }
        boolean gone = found.stream().anyMatch(server -> ProcessHandle.of(server.pid()).filter(ProcessHandle::isAlive)
            .isEmpty());
        if ((gone || found.isEmpty() && everFound) && System.nanoTime() - lookedAt > LOOK_AGAIN.toNanos()) {
          found = find.get();
          lookedAt = System.nanoTime();
        }
        everFound |= !found.isEmpty();
        for (LocalServer server : found) {
          if (cpu) {
            LocalProcess.cpuSeconds(server.pid()).ifPresent(seconds -> reading.counter(new Figure(server.name(),
                "cpu", "% of a core", "process_cpu_seconds", 100), seconds.doubleValue(), every));
          }
          LocalProcess.residentBytes(server.pid(), PROC).ifPresent(bytes -> reading.gauge(new Figure(server.name(),
              "resident memory", "MB", "process_resident_memory_bytes", 1 / MB), bytes.doubleValue()));
        }
      }
    };
  }

  // The load generator itself: a run whose generator is at its limit measures the generator, not the server. Its heap
  // after the last collection is what a long run should hold flat; the heap in use at a second's end has a sawtooth.
  private Source loadGenerator() {
    HeapAfterGc afterGc = HeapAfterGc.listen();
    return new Source() {
      @Override
      public void read(Reading reading) {
        LocalProcess.cpuSeconds(ProcessHandle.current().pid()).ifPresent(seconds -> reading.counter(new Figure(
            "load generator", "cpu", "% of a core", "process_cpu_seconds", 100), seconds.doubleValue()));
        Runtime runtime = Runtime.getRuntime();
        reading.gauge(new Figure("load generator", "heap", "MB", "jvm_heap_used_bytes", 1 / MB),
            runtime.totalMemory() - runtime.freeMemory());
        afterGc.bytes().ifPresent(bytes -> reading.gauge(new Figure("load generator", "heap after GC", "MB",
            "jvm_heap_after_gc_bytes", 1 / MB), bytes));
      }

      @Override
      public void close() {
        afterGc.close();
      }
    };
  }

  /** What could not be read, for the page: a source given up on, and the seconds each source missed. */
  private static final class Notes {
    private final List<String> cadence = new ArrayList<>();
    private final Map<String, String> gaveUp = new LinkedHashMap<>();
    private final Map<String, Integer> missed = new LinkedHashMap<>();
    private final Map<String, String> firstMiss = new HashMap<>();

    synchronized boolean gaveUp(String source) {
      return gaveUp.containsKey(source);
    }

    synchronized void giveUp(String source, String why) {
      gaveUp.put(source, why);
    }

    synchronized void missed(String source, String why) {
      missed.merge(source, 1, Integer::sum);
      firstMiss.putIfAbsent(source, why);
    }

    synchronized void cadence(String line) {
      cadence.add(line);
    }

    synchronized List<String> lines() {
      List<String> lines = new ArrayList<>(cadence);
      lines.addAll(gaveUp.values());
      missed.forEach((source, seconds) -> lines.add(source + " not read in " + seconds + " second"
          + (seconds == 1 ? "" : "s") + " (the first: " + firstMiss.get(source) + ")"));
      return lines;
    }
  }
}
