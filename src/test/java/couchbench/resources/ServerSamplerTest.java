package couchbench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import couchbench.HttpReplies;
import couchbench.results.ServerSeries;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ServerSamplerTest {

  private static final String STATS = """
      {"httpd":{"requests":{"value":%d,"type":"counter"}},"database_reads":{"value":5,"type":"counter"},
       "database_writes":{"value":7,"type":"counter"},"open_databases":{"value":2,"type":"counter"},
       "open_os_files":{"value":3,"type":"counter"}}
      """;
  private static final String SYSTEM = """
      {"process_count":400,"run_queue":1,"message_queues":{"couch_server":2},"memory":{"processes":1048576}}
      """;

  @Test
  void shouldReadEachOfANodesSourcesAtItsOwnCadenceAndLeaveTheSecondsBetweenEmpty() throws Exception {
    AtomicInteger stats = new AtomicInteger();
    AtomicInteger system = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/_node/_local/_stats/couchdb", exchange -> HttpReplies.json(exchange, 200,
        STATS.formatted(1000 * stats.incrementAndGet())));
    server.createContext("/_node/_local/_system", exchange -> {
      system.incrementAndGet();
      HttpReplies.json(exchange, 200, SYSTEM);
    });
    server.start();
    try {
      CouchTarget target = new CouchTarget("http://127.0.0.1:" + server.getAddress().getPort(), Optional.empty(),
          false);
      ServerSampler sampler = ServerSampler.start(Optional.of(target), List.of(), List.of(),
          new ServerSampler.Cadence(1, 3, 0));
      Thread.sleep(4_500);
      ServerSeries series = sampler.stop();

      int seconds = series.samples().size();
      assertTrue(seconds >= 4, "seconds sampled: " + seconds);
      assertEquals(seconds, stats.get());
      assertEquals((seconds + 2) / 3, system.get(), "_system read every third second, the first included");
      List<Integer> processes = new ArrayList<>();
      List<Integer> requests = new ArrayList<>();
      for (int second = 0; second < seconds; second++) {
        double[] values = series.samples().get(second).values();
        processes.add(Double.isNaN(value(series, values, "couchdb erlang processes (count)")) ? 0 : 1);
        requests.add(Double.isNaN(value(series, values, "couchdb httpd requests (/s)")) ? 0 : 1);
      }
      assertEquals(List.of(1, 0, 0, 1), processes.subList(0, 4));
      assertEquals(List.of(0, 1, 1, 1), requests.subList(0, 4), "a rate from the second reading on");
      assertTrue(series.columns().stream().noneMatch(column -> column.contains("resident memory")),
          "the process is never read: " + series.columns());
      assertTrue(series.notes().stream().anyMatch(note -> note.contains("_system") && note.contains("every 3 s")),
          "the page says how often _system was read: " + series.notes());
    } finally {
      server.stop(0);
    }
  }

  @Test
  void shouldGiveUpOnANodeThatRefusesTheLoginAndSaySoOnce() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/_node/_local/", exchange -> {
      asked.incrementAndGet();
      HttpReplies.json(exchange, 401, "{\"error\":\"unauthorized\",\"reason\":\"Name or password is incorrect.\"}");
    });
    server.start();
    try {
      CouchTarget target = new CouchTarget("http://127.0.0.1:" + server.getAddress().getPort(), Optional.empty(),
          false);
      ServerSampler sampler = ServerSampler.start(Optional.of(target), List.of(), List.of(),
          new ServerSampler.Cadence(1, 1, 0));
      Thread.sleep(2_500);
      ServerSeries series = sampler.stop();

      assertEquals(1, asked.get(), "a node that refused the login is not asked again");
      assertEquals(List.of("couchdb refuses the login its node's statistics (they need a server admin): its own figures"
          + " are not read"), series.notes().stream().filter(note -> note.contains("login")).toList());
    } finally {
      server.stop(0);
    }
  }

  @Test
  void shouldReadTheCpuAndMemoryOfAnotherLocalServerUnderItsName() throws Exception {
    // This JVM stands for a Nouveau server: a process of this machine the load names, no CouchDB or memcache.
    LocalServer nouveau = new LocalServer("nouveau", ProcessHandle.current().pid(), Optional.empty());
    ServerSampler sampler = ServerSampler.start(Optional.empty(), List.of(), List.of(nouveau),
        ServerSampler.Cadence.EVERY_SECOND);
    long spinUntil = System.nanoTime() + 2_500_000_000L;
    while (System.nanoTime() < spinUntil) {
      Thread.onSpinWait(); // CPU for the rate to show
    }
    ServerSeries series = sampler.stop();

    List<Double> cpu = new ArrayList<>();
    List<Double> memory = new ArrayList<>();
    for (ServerSeries.Sample sample : series.samples()) {
      cpu.add(value(series, sample.values(), "nouveau cpu (% of a core)"));
      memory.add(value(series, sample.values(), "nouveau resident memory (MB)"));
    }
    assertTrue(cpu.stream().anyMatch(percent -> percent > 0), "a rate from the second reading on: " + cpu + " in "
        + series.columns());
    assertTrue(memory.stream().allMatch(megabytes -> megabytes > 0), "every second: " + memory);
  }

  @Test
  void shouldKeepACallersProbeEachSecondAsItIsAndLeaveASecondItCannotReadEmpty() throws Exception {
    // Search's index documents while it builds: read by the caller, the second it has none (not opened yet) a gap.
    AtomicInteger reads = new AtomicInteger();
    ServerSampler.Probe documents = new ServerSampler.Probe("index", "documents", "count", "search_index_documents",
        () -> {
          int read = reads.incrementAndGet();
          return read == 1 ? OptionalDouble.empty() : OptionalDouble.of(100.0 * read);
        });
    ServerSampler sampler = ServerSampler.start(Optional.empty(), List.of(), List.of(), List.of(documents),
        ServerSampler.Cadence.EVERY_SECOND);
    Thread.sleep(3_500);
    ServerSeries series = sampler.stop();

    List<Double> values = new ArrayList<>();
    series.samples().forEach(sample -> values.add(value(series, sample.values(), "index documents (count)")));
    assertTrue(values.size() >= 3 && values.size() == reads.get(), "one read a second: " + values);
    assertTrue(values.get(0).isNaN(), "the first second, not read: " + values);
    assertEquals(List.of(200.0, 300.0), values.subList(1, 3), "each second's own, as it is (not a rate)");
  }

  private static double value(ServerSeries series, double[] values, String column) {
    int index = series.columns().indexOf(column);
    return index < 0 || index >= values.length ? Double.NaN : values[index];
  }
}
