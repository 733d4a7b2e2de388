package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MemSet against a server that answers every set with STORED twice ({@link SetAnsweredTwiceProxy} in front of
 * memcached): each extra STORED is a KO "memcache protocol error" naming the server and the reply, so MemSet fails its
 * assertion of no failed requests; each dropped its connection, which the console, results.json and the summary count
 * as out of step, with the reply. One Gatling run of 2 s of load.
 */
class SetAnsweredTwiceIT {

  @Test
  void shouldFailMemSetsAssertionsNamingTheExtraReplies() throws Exception {
    Path keyFile = KeyFiles.fresh("set-answered-twice");
    try (MemcachedServer memcached = MemcachedServer.start();
        SetAnsweredTwiceProxy proxy = new SetAnsweredTwiceProxy(memcached.port())) {
      GatlingRun.Result set = GatlingRun.run("MemSet", Map.of("memcache.servers", proxy.address(), "users", "2",
          "duration", "2", "warmup", "0", "valueSize", "50", "keyFile", keyFile.toString()), Duration.ofMinutes(2));

      assertEquals(2, set.exitCode(), "failed assertions:\n" + set.output());
      String error = "memcache server " + proxy.address()
          + " sent a reply no request was waiting for: \"STORED\\r\\n\"";
      assertTrue(set.output().contains(error), "Gatling's error table names the extra replies:\n" + set.output());
      assertTrue(GatlingReport.errors(set.requireRunFolder()).containsKey(error), "and so does the report's");
      Map<String, GatlingReport.Counts> requests = GatlingReport.requests(set.requireRunFolder());
      GatlingReport.Counts extra = requests.get("memcache protocol error");
      GatlingReport.Counts sets = requests.get("memcache set");
      assertTrue(extra != null && extra.ko() > 0 && extra.ok() == 0, requests.toString());
      assertTrue(sets.ko() == 0 && extra.ko() >= sets.ok() - 2 && extra.ko() <= sets.ok(),
          "one extra reply per set, but those answered after their user ended: " + requests);

      Results.ServerConnections connections = ResultsFile.read(set.requireRunFolder()).memcacheConnections().get(0);
      long dropped = connections.dropped().get("out-of-step reply");
      assertEquals(proxy.address(), connections.server());
      assertEquals(Map.of("out-of-step reply", dropped), connections.dropped(), "results.json: out of step only");
      assertTrue(dropped >= extra.ko() && dropped <= sets.ok(), "a drop per extra reply: " + connections);
      assertEquals("STORED\\r\\n", connections.firstReply());
      assertEquals(connections.opened() - 2, connections.reopened(), "each of the 2 users opened one, then again");
      String line = proxy.address() + ": " + connections.opened() + " opened, " + dropped + " dropped (" + dropped
          + " out-of-step reply, the first reply no request was waiting for \"STORED\\r\\n\"), "
          + connections.reopened() + " reopened";
      assertTrue(set.output().contains("couchbench: memcache connections dropped: " + line), set.output());
      String page = Files.readString(set.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("Memcache connections dropped: " + line.replace("\"", "&quot;")
          + ". A server broke the protocol"), page);
    }
  }
}
