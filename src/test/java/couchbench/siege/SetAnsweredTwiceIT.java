package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.targets.MemcachedServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MemSet against a server that answers every set with STORED twice ({@link SetAnsweredTwiceProxy} in front of
 * memcached): each extra STORED is a KO "memcache protocol error" naming the server and the reply, so MemSet fails its
 * assertion of no failed requests. One Gatling run of 2 s of load.
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
    }
  }
}
