package couchbench.background;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.RunSeconds;
import couchbench.data.RandomText;
import couchbench.requests.CouchRequests;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import couchbench.targets.RealCouchDb;
import couchbench.targets.Targets;
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
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a real Apache CouchDB 3.5 node: CouchGet while the run compacts its database of 10,000 documents, then replicates
 * it; Workload A while the run builds a view over its 20,000 records. Each task followed from start to end, the load's
 * figures before, during and after each. Bad input: tasks a user who is not an admin may not start, a task still
 * running at -DbackgroundTimeout, nodesync on a single node, a run without CouchDB or with memcache too.
 */
class BackgroundCouchDbIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final int DOCS = 10_000;
  private static final int TEXT = 800;
  private static final String READER_PASSWORD = "reader-test-secret";

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  @TempDir
  Path work;

  @Test
  void shouldFollowACompactionAndAReplicationUnderCouchGetAndCompareTheLoadBeforeDuringAndAfter() throws Exception {
    Path keyFile = load("background_it");
    // A design document whose view is built: the compaction compacts its index after the database's file.
    assertEquals(201, send("PUT", "/background_it/_design/kept", "{\"views\":{\"ids\":{\"map\":"
        + "\"function (doc) { emit(doc._id, null); }\"}}}").statusCode());
    assertEquals(200, send("GET", "/background_it/_design/kept/_view/ids?limit=1", "").statusCode());

    // Each task takes seconds to over ten on a busy machine (the replication ended past 28 s of load once): the load
    // ends 3 s after the second one, -Dduration only a bound.
    GatlingRun.Result run = GatlingRun.run("CouchGet", COUCHDB.runProperties(Map.of("users", "4", "duration", "120",
        "keyFile", keyFile.toString(), "database", "background_it", "background", "compact,replicate",
        "backgroundAt", "3", "backgroundGap", "2", "backgroundAfter", "3")), TIMEOUT);

    assertEquals(0, run.exitCode(), "every read still checked, none failed: " + run.why());
    assertTrue(run.output().contains("couchbench: background: the load ends 3 s from now (-DbackgroundAfter)"),
        run.output());
    assertTrue(run.output().contains("couchbench: background: POST /background_it/_compact, then"
        + " /background_it/_compact/<ddoc> for its 1 design document: ended after "),
        run.output());
    List<String> tasks = Files.readAllLines(run.requireRunFolder().resolve("background-tasks.csv"));
    assertEquals(3, tasks.size(), tasks.toString());
    String[] compact = cells(tasks.get(1));
    assertEquals("POST /background_it/_compact, then /background_it/_compact/<ddoc> for its 1 design document",
        compact[1]);
    assertEquals("ended", compact[10], tasks.get(1));
    assertTrue(Double.parseDouble(compact[8]) < Double.parseDouble(compact[7]), "the file shrank: " + tasks.get(1));
    assertTrue(!compact[5].startsWith("0 of"), "the compaction seen in _active_tasks: " + tasks.get(1));
    Matcher views = Pattern.compile("the views on disk: ([0-9.]+) -> ([0-9.]+) MB").matcher(compact[9]);
    assertTrue(views.matches() && Double.parseDouble(views.group(2)) < Double.parseDouble(views.group(1)),
        "the view's index compacted too: " + tasks.get(1));
    String[] replicate = cells(tasks.get(2));
    assertEquals("ended", replicate[10], tasks.get(2));
    assertTrue(Double.parseDouble(replicate[8]) > 0, "the copy's size: " + tasks.get(2));
    assertTrue(replicate[9].matches("in _scheduler/jobs: [1-9][0-9]* of [0-9]+ reads, no crash"),
        "the job seen by the scheduler: " + tasks.get(2));
    assertEquals(404, send("GET", "/background_it_background_replica_1", "").statusCode(), "the copy is deleted");

    List<String> windows = Files.readAllLines(run.requireRunFolder().resolve(
        "the-load-before-during-and-after-each-background-task.csv"));
    assertEquals(7, windows.size(), windows.toString());
    RunSeconds seconds = RunSeconds.of(run.requireRunFolder());
    for (int task = 1; task <= 2; task++) {
      String[] ran = cells(tasks.get(task));
      String[] before = cells(windows.get(3 * task - 2));
      String[] during = cells(windows.get(3 * task - 1));
      String[] after = cells(windows.get(3 * task));
      assertEquals(List.of(ran[0], ran[0], ran[0], "before", "during", "after"), List.of(before[0], during[0],
          after[0], before[1], during[1], after[1]), windows.toString());
      // The task's span, from background-tasks.csv, bounds its windows.
      assertEquals(List.of(ran[2], ran[2], ran[3], ran[3]), List.of(before[3], during[2], during[3], after[2]),
          "the windows meet at the task's start and end: " + tasks.get(task) + "\n" + windows);
      for (String[] window : List.of(before, during, after)) {
        assertWindowIsItsSeconds(window, seconds);
      }
    }
    List<Double> requests = seconds.column("requests (/s)");
    int lastSecond = requests.size() - 1;
    while (lastSecond > 0 && !(requests.get(lastSecond) > 0)) {
      lastSecond--;
    }
    double replicationEnd = Double.parseDouble(cells(tasks.get(2))[3]);
    assertTrue(seconds.column("second").get(lastSecond) <= replicationEnd + 3 + 2, "the load ended 3 s after the last"
        + " task (" + replicationEnd + " s), not at -Dduration: its last second " + seconds.column("second")
        .get(lastSecond));
    assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html"))
        .contains("alt=\"background tasks on the run&#39;s time axis\""), "the tasks on the seconds charts' axis");
    assertEquals(DOCS + 1, docCount("background_it"), "the database holds its documents and design document only");
  }

  @Test
  void shouldBuildAViewOverTwentyThousandRecordsUnderWorkloadAOnceItsLoadPhaseIsDone() throws Exception {
    GatlingRun.Result run = GatlingRun.run("Workload", COUCHDB.runProperties(Map.of("system", "couchdb", "workload",
        "a", "records", "20000", "fields", "2", "duration", "120", "database", "background_workload", "background",
        "viewbuild", "backgroundAt", "3", "backgroundAfter", "3")), TIMEOUT);

    assertEquals(0, run.exitCode(), "every read still checked, none failed: " + run.why());
    assertTrue(run.output().contains("couchbench: background: a view built: PUT /background_workload/_design/"),
        run.output());
    String[] view = cells(Files.readAllLines(run.requireRunFolder().resolve("background-tasks.csv")).get(1));
    assertEquals("ended", view[view.length - 1], String.join(",", view));
    assertTrue(Double.parseDouble(view[8]) > 0, "the index's size: " + String.join(",", view));
    assertTrue(!view[5].startsWith("0 of"), "the indexer seen in _active_tasks: " + String.join(",", view));
    List<String> windows = Files.readAllLines(run.requireRunFolder().resolve(
        "the-load-before-during-and-after-each-background-task.csv"));
    String[] before = windows.get(1).split(",");
    // The load phase's 20,000 inserts take many seconds (some 25 here): the task's times count from the operations'
    // start. The build takes some 9 s here (50,000 records took 22 s); the operations end 3 s after it.
    assertTrue(Double.parseDouble(before[2]) > 5, "the first window starts after the load phase: " + windows);
    assertEquals(3, Double.parseDouble(view[2]) - Double.parseDouble(before[2]), 0.5, "3 s into the operations");
    for (String window : windows.subList(1, 4)) {
      assertFalse(window.split(",", -1)[6].isEmpty(), "a p99 in each window: " + window);
    }
    assertEquals(20_000, docCount("background_workload"), "the records only: the view's design document is gone");
  }

  @Test
  void shouldSayInOneLineATaskRefusedToANonAdminAndOneRunningPastItsTimeoutAndKeepTheLoad() throws Exception {
    Path keyFile = load("background_refused");
    // A member of the database, not an admin: it may read the documents, neither compact them nor add a view.
    assertEquals(201, send("PUT", "/_users/org.couchdb.user:reader", "{\"name\":\"reader\",\"password\":\""
        + READER_PASSWORD + "\",\"roles\":[],\"type\":\"user\"}").statusCode());
    assertEquals(200, send("PUT", "/background_refused/_security", "{\"admins\":{\"names\":[],\"roles\":[]},"
        + "\"members\":{\"names\":[\"reader\"],\"roles\":[]}}").statusCode());
    // 5 s of load: both tasks are tried (and refused, or timed out) within its first 3 s.
    Map<String, String> asReader = COUCHDB.runProperties(Map.of("users", "2", "duration", "5", "keyFile",
        keyFile.toString(), "database", "background_refused", "background", "compact,viewbuild", "backgroundAt", "1",
        "backgroundGap", "1"));
    asReader.putAll(Map.of("couchdb.user", "reader", "couchdb.password", READER_PASSWORD));

    GatlingRun.Result refused = GatlingRun.run("CouchGet", asReader, TIMEOUT);

    assertEquals(0, refused.exitCode(), "every read still checked, none failed: " + refused.output());
    String line = ": refused: user 'reader' is not a server admin, and background work needs one: give"
        + " -Dcouchdb.user an admin's name; the load goes on";
    assertTrue(refused.output().contains("couchbench: background: POST /background_refused/_compact" + line),
        refused.output());
    assertTrue(refused.output().contains("couchbench: background: a view built: PUT /background_refused/_design/"),
        "the next task still tried: " + refused.output());
    assertFalse(refused.output().contains("\tat "), "no stack trace: " + refused.output());
    assertFalse(refused.output().contains(READER_PASSWORD), "no password: " + refused.output());
    List<String> tasks = Files.readAllLines(refused.requireRunFolder().resolve("background-tasks.csv"));
    assertEquals(List.of(line.substring(2), line.substring(2)), tasks.subList(1, 3).stream()
        .map(row -> cells(row)[10]).toList(), "each task's row says why it did not run: " + tasks);
    assertTrue(GatlingReport.requests(refused.requireRunFolder()).get(CouchRequests.GET).ok() > 0,
        "the load's figures kept: " + refused.output());
    assertEquals(DOCS, docCount("background_refused"), "no design document left behind");

    GatlingRun.Result timedOut = GatlingRun.run("CouchGet", COUCHDB.runProperties(Map.of("users", "2", "duration",
        "5", "keyFile", keyFile.toString(), "database", "background_refused", "background", "compact",
        "backgroundAt", "1", "backgroundTimeout", "1")), TIMEOUT);

    assertEquals(0, timedOut.exitCode(), "every read still checked, none failed: " + timedOut.output());
    // 10,000 documents of 800 bytes written in ten batches: a compaction of seconds, never under one.
    assertTrue(timedOut.output().contains("couchbench: background: POST /background_refused/_compact: did not end"
        + " within -DbackgroundTimeout=1 s: left to the server"), timedOut.output());
    String[] compact = cells(Files.readAllLines(timedOut.requireRunFolder().resolve("background-tasks.csv")).get(1));
    assertEquals("", compact[3], "no end: " + String.join(",", compact));
    assertTrue(GatlingReport.requests(timedOut.requireRunFolder()).get(CouchRequests.GET).ok() > 0,
        "the load's figures kept: " + timedOut.output());
    long deadline = System.currentTimeMillis() + TIMEOUT.toMillis();
    while (new ObjectMapper().readTree(send("GET", "/background_refused", "").body()).path("compact_running")
        .asBoolean() && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
    }
    assertFalse(new ObjectMapper().readTree(send("GET", "/background_refused", "").body()).path("compact_running")
        .asBoolean(), "the compaction left to the server ended there");
  }

  @Test
  void shouldRefuseBackgroundWorkBeforeTheLoadOfARunWithoutCouchDbOrWithMemcacheInIt() throws Exception {
    GatlingRun.run("MemSet", Map.of("background", "compact", "duration", "2"), TIMEOUT).assertStoppedBeforeLoad(
        "couchbench: stopped: -Dbackground: MemSet loads no CouchDB database here; give it to CouchGet, CouchSet,"
            + " Workload (-Dsystem=couchdb), Query or Changes");
    GatlingRun.run("CouchVsMemcache", COUCHDB.runProperties(Map.of("background", "compact", "duration", "2")),
        TIMEOUT).assertStoppedBeforeLoad("couchbench: stopped: -Dbackground: CouchVsMemcache loads memcache in the"
            + " same run, and the background work is CouchDB's: it would run on into memcache's part");
  }

  @Test
  void shouldRefuseNodeSyncOnASingleNodeInOneLine() {
    SettingsException e = assertThrows(SettingsException.class, () -> NodeSync.choose(Targets.couchdb(Settings.of(
        COUCHDB.runProperties(Map.of()), Map.of())), Optional.empty()));

    assertTrue(e.getMessage().startsWith("-Dbackground=nodesync restarts a node of a CouchDB cluster, and "
        + COUCHDB.node().url() + " is a single node (its _membership lists [" + COUCHDB.node().erlangName() + "])"),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("give a cluster's nodes in -Dcouchdb.url, or leave nodesync out"),
        e.getMessage());
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

  /**
   * A window's rate is the mean of seconds.csv's "requests (/s)" over the seconds whose middle falls in it, and its
   * p99 lies between the p99s of those seconds (a merged histogram's percentile cannot pass its parts' highest, nor
   * fall below their lowest). The bounds are given to 0.1 s: a second whose middle is within 0.05 s of one may be in
   * or out, and each way is tried.
   */
  private static void assertWindowIsItsSeconds(String[] window, RunSeconds seconds) {
    double from = Double.parseDouble(window[2]);
    double to = Double.parseDouble(window[3]);
    List<Double> second = seconds.column("second");
    List<Double> rate = seconds.column("requests (/s)");
    List<Double> p99 = seconds.column("p99 (ms)");
    List<Integer> inside = new ArrayList<>();
    List<Integer> edge = new ArrayList<>();
    for (int row = 0; row < second.size(); row++) {
      double middle = second.get(row) + 0.5;
      if (Math.abs(middle - from) <= 0.05 || Math.abs(middle - to) <= 0.05) {
        edge.add(row);
      } else if (middle > from && middle < to) {
        inside.add(row);
      }
    }
    String what = String.join(",", window) + " against seconds " + second + " at " + rate + "/s, p99 " + p99;
    if (inside.isEmpty() && edge.isEmpty()) {
      assertTrue(window[4].isEmpty(), "no second in it, no rate: " + what);
      return;
    }
    // A window holds the seconds whose middle falls in it: one shorter than 1.5 s may hold none.
    assertFalse(to - from >= 1.5 && (window[4].isEmpty() || window[6].isEmpty()), "rate and p99: " + what);
    if (window[4].isEmpty()) {
      return;
    }
    double shown = Double.parseDouble(window[4]);
    boolean rateMatches = false;
    for (int taken = 0; taken < 1 << edge.size(); taken++) {
      List<Integer> rows = new ArrayList<>(inside);
      for (int i = 0; i < edge.size(); i++) {
        if ((taken & 1 << i) != 0) {
          rows.add(edge.get(i));
        }
      }
      double mean = rows.stream().mapToDouble(rate::get).average().orElse(Double.NaN);
      // The page shows three significant digits.
      rateMatches |= Math.abs(mean - shown) <= Math.max(0.05, mean * 0.005);
    }
    assertTrue(rateMatches, "the window's rate is the mean of its seconds': " + what);
    List<Integer> all = new ArrayList<>(inside);
    all.addAll(edge);
    double lowest = all.stream().map(p99::get).filter(value -> !value.isNaN()).min(Double::compare).orElseThrow();
    double highest = all.stream().map(p99::get).filter(value -> !value.isNaN()).max(Double::compare).orElseThrow();
    double windowP99 = Double.parseDouble(window[6]);
    assertTrue(windowP99 >= lowest * 0.99 - 0.01 && windowP99 <= highest * 1.01 + 0.01,
        "the window's p99 lies between its seconds' (" + lowest + " to " + highest + " ms): " + what);
  }

  // A CSV row's cells, a quoted one (it holds a comma) without its quotes.
  private static String[] cells(String row) {
    return Stream.of(row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1))
        .map(cell -> cell.startsWith("\"") ? cell.substring(1, cell.length() - 1).replace("\"\"", "\"") : cell)
        .toArray(String[]::new);
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
