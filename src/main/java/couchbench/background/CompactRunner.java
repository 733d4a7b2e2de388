package couchbench.background;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.ReplyJson;
import couchbench.startup.OneLineException;
import couchbench.startup.RunClock;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * compact: POST /db/_compact, then GET /db until compact_running is false; then each design document's views in turn
 * (POST /db/_compact/ddoc, then its _info until compact_running is false), as CouchDB's smoosh compacts both.
 * _active_tasks for the progress of each; the database and its views within one -DbackgroundTimeout together.
 *
 * @param follower what follows it
 * @param database the database the load uses
 */
record CompactRunner(TaskFollower follower, String database) implements TaskRunner {

  /** How long a compaction CouchDB accepted may take to be seen starting. */
  private static final Duration START_GRACE = Duration.ofSeconds(2);

  @Override
  public BackgroundTask run() {
    CouchDbClient client = follower.client();
    List<String> designs = designDocuments();
    String what = "POST /" + database + "/_compact" + (designs.isEmpty() ? "" : ", then /" + database
        + "/_compact/<ddoc> for its " + designs.size() + " design document" + (designs.size() == 1 ? "" : "s"));
    long before = follower.fileBytes(database);
    long viewsBefore = viewBytes(designs);
    long start = RunClock.millis();
    long deadline = follower.deadline(); // the database and its views together
    String refused = follower.refusal(() -> client.exchange("POST", "/" + database + "/_compact", "{}"), 202);
    if (refused != null) {
      return new BackgroundTask(BackgroundPlan.Kind.COMPACT, what, start, -1, List.of(), before, -1, refused);
    }
    List<BackgroundTask.Progress> progress = new ArrayList<>();
    String problem = followCompaction(progress, follower.activeTask(task -> task.path("type").asText()
        .equals("database_compaction") && shardOf(task.path("database").asText()) ? task.path("progress").asInt(0)
        : -1), () -> ReplyJson.of(client.get("/" + database).body()), before, deadline);
    for (int i = 0; i < designs.size() && problem == null; i++) {
      String design = designs.get(i);
      String path = "/" + database + "/_compact/" + pathSegment(design);
      long viewBefore = viewBytes(List.of(design));
      problem = follower.refusal(() -> client.exchange("POST", path, "{}"), 202);
      if (problem == null) {
        problem = followCompaction(progress, follower.activeTask(task -> task.path("type").asText()
            .equals("view_compaction") && shardOf(task.path("database").asText())
            && task.path("design_document").asText().equals("_design/" + design) ? task.path("progress").asInt(0) : -1),
            () -> viewIndex(design), viewBefore, deadline);
      } else {
        problem = "POST " + path + " " + problem;
      }
    }
    boolean loadEnded = Thread.interrupted(); // kept aside while the sizes after are read
    long after = follower.fileBytes(database);
    long viewsAfter = viewBytes(designs);
    if (loadEnded) {
      Thread.currentThread().interrupt();
    }
    String views = designs.isEmpty() ? null : "the views on disk: " + megabytes(viewsBefore) + " -> "
        + megabytes(viewsAfter) + " MB";
    return new BackgroundTask(BackgroundPlan.Kind.COMPACT, what, start,
        problem == null ? TaskFollower.lastRead(progress) : -1, progress, before, after, problem, -1, views);
  }

  /**
   * Follows one compaction, a database's or a design document's views', until it has ended. CouchDB answers the POST
   * before a cluster database's shards start compacting, so a read just after it may say none runs: the compaction has
   * started once a read says it runs, _active_tasks lists it or its file shrank; one never seen started (done between
   * two reads, with nothing to reclaim) is taken as ended after {@link #START_GRACE}.
   *
   * @param progress where each read goes
   * @param activeTask one read of _active_tasks: its progress (%), -1 where not listed
   * @param info one read of what says whether it runs: compact_running and sizes.file
   * @param bytesBefore its file before the POST, bytes; -1 unknown
   * @param deadline when it is no longer followed, on System.nanoTime's clock
   * @return null when it ended; else why not
   */
  private String followCompaction(List<BackgroundTask.Progress> progress, IntSupplier activeTask,
      Supplier<JsonNode> info, long bytesBefore, long deadline) {
    long posted = System.nanoTime();
    AtomicBoolean started = new AtomicBoolean();
    // Asked right after each read of _active_tasks, which follow() has just added to the progress.
    BooleanSupplier ended = () -> {
      JsonNode now = info.get();
      boolean running = now.path("compact_running").asBoolean(true);
      long file = now.path("sizes").path("file").asLong(-1);
      if (running || (file >= 0 && file < bytesBefore) || progress.get(progress.size() - 1).percent() >= 0) {
        started.set(true);
      }
      return !running && (started.get() || System.nanoTime() - posted > START_GRACE.toNanos());
    };
    return follower.follow(progress, activeTask, ended, deadline);
  }

  private static String megabytes(long bytes) {
    return bytes < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", bytes / 1e6);
  }

  // A design document's name as one segment of a path: a space, '?', '#' or '/' in it stays in its name.
  private static String pathSegment(String name) {
    return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }

  // The database's design documents, by name (without "_design/").
  private List<String> designDocuments() {
    List<String> names = new ArrayList<>();
    try {
      for (JsonNode row : ReplyJson.of(follower.client().get("/" + database + "/_design_docs").body()).path("rows")) {
        String id = row.path("id").asText();
        if (id.startsWith("_design/")) {
          names.add(id.substring("_design/".length()));
        }
      }
    } catch (OneLineException e) {
      // none read: the database alone is compacted
    }
    return names;
  }

  private JsonNode viewIndex(String design) {
    return ReplyJson.of(follower.client().get("/" + database + "/_design/" + pathSegment(design) + "/_info").body())
        .path("view_index");
  }

  // The design documents' view indexes on disk, bytes; -1 when one is unread.
  private long viewBytes(List<String> designs) {
    long bytes = 0;
    for (String design : designs) {
      try {
        long file = viewIndex(design).path("sizes").path("file").asLong(-1);
        if (file < 0) {
          return -1;
        }
        bytes += file;
      } catch (OneLineException e) {
        return -1;
      }
    }
    return bytes;
  }

  // A cluster's database is its shards: _active_tasks names them "shards/<range>/<database>.<suffix>".
  private boolean shardOf(String name) {
    return name.equals(database) || name.endsWith("/" + database) || name.contains("/" + database + ".");
  }
}
