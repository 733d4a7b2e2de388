package couchbench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.couchdb.CouchDbClient;
import couchbench.memcache.client.MemcacheClient;
import couchbench.memcache.client.MemcacheClientConfig;
import couchbench.memcache.client.MemcacheConnections;
import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MemcacheRequest.StoreCommand;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.MemcachedServer;
import couchbench.targets.PouchDbServer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Before and after writing N items or documents, against a real memcached and a real pouchdb-server. */
class ResourcesIT {

  private static final int ITEMS = 20_000;
  private static final int DOCS = 300;

  @Test
  void shouldShowTheItemsWrittenAndTheCpuSpentInMemcachedsFigures() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start()) {
      MemcacheTarget target = new MemcacheTarget(List.of(memcached.address()), false);
      ResourceSnapshot before = MemcacheResources.snapshot(target, List.of(memcached.local()));

      setItems(target, ITEMS);
      ResourceSnapshot after = MemcacheResources.snapshot(target, List.of(memcached.local()));
      ResourceSnapshot delta = after.minus(before);

      assertEquals(Optional.of(BigDecimal.valueOf(ITEMS)), delta.value(MemcacheResources.CURR_ITEMS), delta.toString());
      assertEquals(Optional.of(BigDecimal.valueOf(ITEMS)), delta.value("memcache cmd_set"));
      assertEquals(Optional.of(BigDecimal.ZERO), delta.value("memcache cmd_get"));
      assertTrue(positive(delta, "memcache bytes"), delta.toString());
      assertTrue(positive(delta, "memcached cpu time (s)"), "memcached's CPU time grew: " + delta);
      assertEquals(Optional.empty(), after.value("memcached data directory (bytes)"), "memcached keeps no data");
      assertEquals(List.of("memcached data directory (bytes)", "n/a", "n/a", "n/a"),
          ResourceSnapshot.table(before, after).rows().get(MemcacheResources.STATS.size() + 1));
    }
  }

  @Test
  void shouldShowTheDocumentsWrittenAndNotInventWhatPouchDbLacks() {
    try (PouchDbServer pouchdb = PouchDbServer.start()) {
      CouchDbClient client = new CouchDbClient(new CouchTarget(pouchdb.url(), Optional.empty(), false));
      client.createDatabase("resources");
      ResourceSnapshot before = CouchResources.snapshot(client, "resources", Optional.of(pouchdb.local()));

      for (int i = 0; i < DOCS; i++) {
        client.putDocument("resources", "doc" + i, "{\"text\":\"" + "x".repeat(100) + "\"}");
      }
      ResourceSnapshot after = CouchResources.snapshot(client, "resources", Optional.of(pouchdb.local()));
      ResourceSnapshot delta = after.minus(before);

      assertEquals(Optional.of(BigDecimal.valueOf(DOCS)), delta.value(CouchResources.DOC_COUNT), delta.toString());
      assertTrue(positive(delta, "couchdb disk_size (bytes)"), delta.toString());
      assertTrue(positive(delta, "pouchdb-server cpu time (s)"), "the node process's CPU time grew: " + delta);
      assertTrue(positive(delta, "pouchdb-server data directory (bytes)"), delta.toString());
      for (String absent : List.of("couchdb sizes.file (bytes)", "couchdb sizes.active (bytes)",
          "couchdb sizes.external (bytes)", "couchdb httpd requests", "couchdb database_reads",
          "couchdb database_writes", "couchdb erlang memory (bytes)")) {
        assertTrue(after.figures().containsKey(absent), absent);
        assertEquals(Optional.empty(), after.value(absent), absent + ": pouchdb-server does not offer it");
      }
    }
  }

  /**
   * A memcached this test starts itself, as a user starts a MemcacheDB by hand: couchbench did not start it, and still
   * finds its process by the port it listens on, and reads its CPU time and resident memory from /proc.
   */
  @Test
  void shouldFindAServerCouchbenchDidNotStartByItsPort() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    List<String> command = new ArrayList<>(List.of("memcached", "-l", "127.0.0.1", "-p", Integer.toString(port),
        "-U", "0"));
    if ("root".equals(System.getProperty("user.name"))) {
      command.addAll(List.of("-u", "root")); // memcached refuses to run as root unless told so
    }
    Process memcached = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      MemcacheTarget target = new MemcacheTarget(List.of("127.0.0.1:" + port), false);
      awaitListening(port, memcached);
      ResourceSnapshot before = MemcacheResources.snapshot(target);
      setItems(target, ITEMS);
      ResourceSnapshot after = MemcacheResources.snapshot(target);

      assertEquals(List.of(memcached.pid()), ServerProcess.of(target).stream().map(LocalServer::pid).toList());
      assertTrue(positive(after.minus(before), "memcached cpu time (s)"), "memcached's CPU time grew: " + after);
      assertTrue(after.value("memcached resident memory (bytes)").map(bytes -> bytes.longValue() > 1 << 20)
          .orElse(false), "memcached holds over 1 MB: " + after);
      List<String> cpuPercent = ResourceSnapshot.table(before, after).rows().stream()
          .filter(row -> row.get(0).equals("memcached cpu % of the phase")).findFirst().orElseThrow();
      assertTrue(Double.parseDouble(cpuPercent.get(3)) > 0, "memcached's CPU % over the sets: " + cpuPercent);
      assertEquals(List.of(), ServerProcess.of(new MemcacheTarget(List.of("db1.example:" + port), false)),
          "a server elsewhere has no process here");
    } finally {
      memcached.destroy();
      memcached.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static void awaitListening(int port, Process server) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline && server.isAlive()) {
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return;
      } catch (IOException e) {
        Thread.sleep(20);
      }
    }
    throw new AssertionError("memcached did not listen on " + port + ": "
        + new String(server.getInputStream().readNBytes(2000), StandardCharsets.UTF_8));
  }

  private static boolean positive(ResourceSnapshot delta, String name) {
    return delta.value(name).map(value -> value.signum() > 0).orElse(false);
  }

  /** Sets count items of 100 bytes, 500 requests in flight at a time. */
  private static void setItems(MemcacheTarget target, int count) throws Exception {
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try (MemcacheClient client = new MemcacheClient(MemcacheClientConfig.of(target.addresses()), group,
        NioSocketChannel::new)) {
      MemcacheConnections connections = client.connectionsFor(group.next());
      byte[] value = "v".repeat(100).getBytes(StandardCharsets.US_ASCII);
      for (int start = 0; start < count; start += 500) {
        List<CompletableFuture<MemcacheReply>> batch = new ArrayList<>();
        for (int i = start; i < Math.min(count, start + 500); i++) {
          batch.add(connections.send(new MemcacheRequest.Store(StoreCommand.SET, "item:" + i, 0, 0, value, 0, false)));
        }
        for (CompletableFuture<MemcacheReply> reply : batch) {
          assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.STORED), reply.get(10, TimeUnit.SECONDS));
        }
      }
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
