package couchbench.viewquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.GatlingRun;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.DesignDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A database whose view takes seconds to build whatever the machine: its map function spends 5 ms on each of 1,500
 * documents, 7.5 s at the least, in one shard (CouchDB builds each shard apart; pouchdb-server has none).
 */
final class SlowView {

  /** Its documents. */
  static final int DOCUMENTS = 1500;

  /** Its design document, _design/slow, view "list". */
  static final DesignDocument DESIGN = new DesignDocument("slow", "list",
      "function (doc) { var until = Date.now() + 5; while (Date.now() < until) {} emit(doc._id, null); }");

  private static final ObjectMapper JSON = new ObjectMapper();

  private SlowView() {}

  /**
   * Creates the database, its documents and the design document; the view is built by its first query.
   *
   * @param client a client of the server
   * @param database the database's name
   */
  static void create(CouchDbClient client, String database) {
    client.exchange("PUT", "/" + database + "?q=1", "");
    ObjectNode body = JSON.createObjectNode();
    ArrayNode docs = body.putArray("docs");
    for (int i = 0; i < DOCUMENTS; i++) {
      docs.addObject().put("_id", String.format("slow-%05d", i)).put("task", "task " + i);
    }
    client.insertDocuments(database, body.toString().getBytes(StandardCharsets.UTF_8), DOCUMENTS);
    client.putDocument(database, DESIGN.id(), DESIGN.json(Optional.empty()));
  }

  /**
   * @param url the server
   * @param database the database {@link #create} made
   * @return a ViewQuery run of the slow view as found, whose requests of couchbench's own wait 2 s for a reply
   */
  static Map<String, String> runProperties(String url, String database) {
    return Map.of("couchdb.url", url, "database", database, "setup", "false", "design", DESIGN.name(), "view",
        DESIGN.view(), "couchdb.timeout", "2", "rate", "10", "conns", "10");
  }

  /**
   * Asserts what a user of the run sees: the run ended well, its build said how far it had come every 5 s, and the
   * build's first query was answered once built, later than couchbench's own requests wait for a reply.
   *
   * @param run a run of {@link #runProperties}
   * @param database its database
   * @param progress what each progress line says after "index build: DATABASE/_design/slow: ", as a pattern
   */
  static void assertFollowed(GatlingRun.Result run, String database, String progress) throws IOException {
    assertEquals(0, run.exitCode(), run.why());
    List<String> lines = run.output().lines().filter(line -> line.startsWith("couchbench: index build: " + database
        + "/_design/slow: ")).toList();
    for (String line : lines) {
      assertTrue(line.matches("couchbench: index build: " + database + "/_design/slow: " + progress
          + " \\(\\d+\\.\\d s\\)"), line);
    }
    Map<String, String> figures = new HashMap<>();
    Files.readAllLines(run.requireRunFolder().resolve("figures.csv")).forEach(line -> figures.put(
        line.substring(0, line.indexOf(',')), line.substring(line.indexOf(',') + 1)));
    assertEquals(String.valueOf(DOCUMENTS), figures.get("index build total_rows"));
    double seconds = Double.parseDouble(figures.get("index build ms")) / 1000;
    assertTrue(seconds > 2, "the build's first query, past -Dcouchdb.timeout=2: " + seconds + " s");
    assertTrue(lines.size() >= 1 && Math.abs(lines.size() - seconds / 5) <= 1,
        "a line every 5 s of a build of " + seconds + " s: " + lines);
  }
}
