package couchbench.background;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingRun;
import couchbench.data.RandomText;
import couchbench.targets.RealCouchDb;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * CouchGet on a real Apache CouchDB 3.5 node while the run compacts its database, builds a view over its 10,000
 * documents, then replicates it: each task followed from start to end, the load's figures before, during and after each.
 */
class BackgroundCouchDbIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final int DOCS = 10_000;
  private static final int TEXT = 800;

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  @TempDir
  Path work;

  @Test
  void shouldFollowACompactionAndAViewBuildUnderCouchGetAndCompareTheLoadBeforeDuringAndAfter() throws Exception {
    Path keyFile = load("background_it");

    GatlingRun.Result run = GatlingRun.run("CouchGet", COUCHDB.runProperties(Map.of("users", "4", "duration", "36",
        "keyFile", keyFile.toString(), "database", "background_it", "background", "compact,viewbuild,replicate",
        "backgroundAt", "3", "backgroundGap", "3")), TIMEOUT);

    assertEquals(0, run.exitCode(), "every read still checked, none failed: " + run.output());
    assertTrue(run.output().contains("couchbench: background: POST /background_it/_compact: ended after "),
        run.output());
    assertTrue(run.output().contains("couchbench: background: a view built: PUT /background_it/_design/"),
        run.output());
    List<String> tasks = Files.readAllLines(run.requireRunFolder().resolve("background-tasks.csv"));
    assertEquals(4, tasks.size(), tasks.toString());
    String[] compact = tasks.get(1).split(",");
    assertEquals("ended", compact[compact.length - 1], tasks.get(1));
    assertTrue(Double.parseDouble(compact[8]) < Double.parseDouble(compact[7]), "the file shrank: " + tasks.get(1));
    String[] view = tasks.get(2).split(",");
    assertEquals("ended", view[view.length - 1], tasks.get(2));
    assertTrue(Double.parseDouble(view[8]) > 0, "the index's size: " + tasks.get(2));
    assertTrue(!view[5].startsWith("0 of"), "the indexer seen in _active_tasks: " + tasks.get(2));
    String[] replicate = tasks.get(3).split(",");
    assertEquals("ended", replicate[replicate.length - 1], tasks.get(3));
    assertTrue(Double.parseDouble(replicate[8]) > 0, "the copy's size: " + tasks.get(3));
    assertEquals(404, send("GET", "/background_it_background_replica_2", "").statusCode(), "the copy is deleted");

    List<String> windows = Files.readAllLines(run.requireRunFolder().resolve(
        "the-load-before-during-and-after-each-background-task.csv"));
    assertEquals(10, windows.size(), windows.toString());
    for (String window : windows.subList(1, 10)) {
      String[] cells = window.split(",", -1);
      // A window holds the seconds whose middle falls in it: one shorter than 1.5 s may hold none.
      boolean whole = Double.parseDouble(cells[3]) - Double.parseDouble(cells[2]) >= 1.5;
      assertFalse(whole && (cells[4].isEmpty() || cells[6].isEmpty()), "rate and p99 in each window: " + window);
    }
    assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html"))
        .contains("alt=\"background tasks on the run&#39;s time axis\""), "the tasks on the seconds charts' axis");
    assertEquals(DOCS, docCount("background_it"), "the view's design document is gone again");
  }

  // 10,000 documents in batches of 1,000, each the text CouchSet would have written under its id; their ids in a key
  // file. Each batch rewrites the database's b-trees, which leaves the file a compaction reclaims.
  private Path load(String database) throws Exception {
    send("PUT", "/" + database, "");
    List<String> ids = new ArrayList<>();
    for (int batch = 0; batch < DOCS / 1000; batch++) {
      StringBuilder docs = new StringBuilder("{\"docs\":[");
      for (int i = 0; i < 1000; i++) {
        String id = "doc" + (batch * 1000 + i);
        ids.add(id);
        docs.append(i == 0 ? "" : ",").append("{\"_id\":\"").append(id).append("\",\"text\":\"")
            .append(RandomText.forKey(id, TEXT)).append("\"}");
      }
      assertEquals(201, send("POST", "/" + database + "/_bulk_docs", docs.append("]}").toString()).statusCode());
    }
    Path keyFile = work.resolve("ids.csv");
    Files.write(keyFile, Stream.concat(Stream.of("key"), ids.stream()).toList());
    return keyFile;
  }

  private long docCount(String database) throws Exception {
    String body = send("GET", "/" + database, "").body();
    return new ObjectMapper().readTree(body).path("doc_count").asLong();
  }

  private static HttpResponse<String> send(String method, String path, String json) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(COUCHDB.node().url() + path))
        .method(method, json.isEmpty() ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
        .header("Content-Type", "application/json")
        .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
            (RealCouchDb.USER + ":" + RealCouchDb.PASSWORD).getBytes(StandardCharsets.UTF_8)))
        .build(), HttpResponse.BodyHandlers.ofString());
  }
}
