package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class PouchDbServerIT {

  @Test
  void shouldAnswerAsCouchDbAndLeaveNothingBehindWhenClosed() throws Exception {
    PouchDbServer server = PouchDbServer.start();
    long pid = server.pid();
    Path data = server.dataDirectory();
    try {
      assertTrue(server.url().matches("http://127\\.0\\.0\\.1:\\d+"), server.url());
      String reply = Net.send("GET", server.url() + "/", null);
      JsonNode welcome = new ObjectMapper().readTree(reply.substring(4));
      assertEquals("200", reply.substring(0, 3), reply);
      assertEquals("Welcome!", welcome.path("express-pouchdb").asText(), reply);
      assertEquals("4.2.0", welcome.path("version").asText(), reply);
      assertTrue(Net.send("PUT", server.url() + "/smoke", null).startsWith("201"));
      assertTrue(Net.send("PUT", server.url() + "/smoke/doc1", "{\"n\":1}").startsWith("201"));
      assertTrue(Net.send("GET", server.url() + "/smoke/doc1", null).contains("\"n\":1"));
      assertTrue(ProcessHandle.of(pid).flatMap(p -> p.info().command()).orElse("").endsWith("node"),
          "pid() is the node process, not its wrapper");
      assertTrue(data.startsWith(Path.of("target", "pouchdb-server")) && Files.isDirectory(data), data.toString());
      assertTrue(Files.exists(data.resolve("pouchdb-server.log")), "its output goes to a file in its data directory");
    } finally {
      server.close();
    }
    assertFalse(Net.listens(server.port()), "the port no longer answers");
    assertTrue(Net.endsWithin(pid, Duration.ZERO), "the server process is gone when close() returns");
    assertFalse(Files.exists(data), "its data directory is deleted");
    server.close(); // a second close is harmless
  }

  @Test
  void shouldRunTwoServersStartedAtOnceSideBySide() throws Exception {
    CompletableFuture<PouchDbServer> first = CompletableFuture.supplyAsync(PouchDbServer::start);
    CompletableFuture<PouchDbServer> second = CompletableFuture.supplyAsync(PouchDbServer::start);
    try (PouchDbServer a = first.get(); PouchDbServer b = second.get()) {
      assertNotEquals(a.port(), b.port());
      assertNotEquals(a.dataDirectory(), b.dataDirectory());
      assertTrue(Net.send("PUT", a.url() + "/only-in-a", null).startsWith("201"));
      assertTrue(Net.send("GET", b.url() + "/only-in-a", null).startsWith("404"), "each has its own data");
    }
  }
}
