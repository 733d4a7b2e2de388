package couchbench.background;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.ReplicationBody;
import couchbench.couchdb.ReplyJson;
import couchbench.couchdb.SchedulerJobs;
import couchbench.startup.OneLineException;
import couchbench.targets.CouchTarget;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The background work of a run, on a thread of its own with a client of its own (none of its requests is one of the
 * load's): each task of the plan started at its time, counted from where the steady load begins, then followed every
 * 100 ms (in _active_tasks, or nodesync's node) until it ends. A task
 * the server refuses, or one that does not end in time, is said in a line and recorded; the load goes on.
 */
public final class BackgroundWork {

  private static final long READ_MILLIS = 100;
  /** How long a compaction CouchDB accepted may take to be seen starting. */
  private static final long START_GRACE_MILLIS = 2_000;

  private final BackgroundPlan plan;
  private final CouchTarget target;
  private final CouchDbClient client;
  private final String database;
  private final Consumer<String> say;
  private final Optional<String> restartedNode;
  private final List<BackgroundTask> done = new CopyOnWriteArrayList<>();
  private final Thread thread;
  /** Opened where the steady load begins, from which the tasks' times count. */
  private final CountDownLatch steady = new CountDownLatch(1);
  private volatile long steadyMillis = -1;

  private BackgroundWork(BackgroundPlan plan, CouchTarget target, String database, Optional<String> restartedNode,
      Consumer<String> say) {
    this.plan = plan;
    this.restartedNode = restartedNode;
    this.target = target;
    this.client = new CouchDbClient(target);
    this.database = database;
    this.say = say;
    this.thread = new Thread(this::runAll, "couchbench-background");
    thread.setDaemon(true);
  }

  /**
   * @param plan the tasks and their times
   * @param target the CouchDB loaded
   * @param database the database the load uses, which the tasks work on
   * @param restartedNode the node nodesync restarts, from {@link #nodeToRestart}
   * @param say where each task's lines go (the console)
   * @return the work, started now: call as the load starts
   */
  public static BackgroundWork start(BackgroundPlan plan, CouchTarget target, String database,
      Optional<String> restartedNode, Consumer<String> say) {
    BackgroundWork work = new BackgroundWork(plan, target, database, restartedNode, say);
    work.thread.start();
    return work;
  }

  /** Marks where the steady load begins (the load's start, or after a phase that fills the database); once. */
  public synchronized void steadyLoadBegins() {
    if (steadyMillis < 0) {
      steadyMillis = System.currentTimeMillis();
      steady.countDown();
    }
  }

  /** @return when the steady load began, epoch milliseconds; -1 if it never did */
  public long steadyMillis() {
    return steadyMillis;
  }

  /**
   * Before the load: the cluster node nodesync will restart, one the load does not send to.
   *
   * @param plan the tasks
   * @param target the CouchDB loaded
   * @return the node; empty without nodesync
   * @throws couchbench.startup.SettingsException for a single node, or a cluster whose every node the load uses
   */
  public static Optional<String> nodeToRestart(BackgroundPlan plan, CouchTarget target) {
    return plan.restartsANode() ? Optional.of(NodeSync.choose(target, plan.node())) : Optional.empty();
  }

  /** @return the tasks run, once the work is stopped: call after the load; a task still followed is ended there */
  public List<BackgroundTask> stop() {
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (steadyMillis < 0) {
      say.accept("background: no task started: the load ended before its steady part began");
    }
    return List.copyOf(done);
  }

  private void runAll() {
    try {
      steady.await();
      Thread.sleep(plan.firstAt().toMillis());
      for (int i = 0; i < plan.tasks().size(); i++) {
        if (i > 0) {
          Thread.sleep(plan.gap().toMillis());
        }
        BackgroundTask task = run(plan.tasks().get(i), i);
        done.add(task);
        say.accept("background: " + task.what() + (task.problem() == null ? String.format(Locale.ROOT,
            ": ended after %.1f s", (task.endMillis() - task.startMillis()) / 1000.0) : ": " + task.problem()));
      }
    } catch (InterruptedException e) {
      // The load ended: what was not started is not.
    } catch (RuntimeException e) {
      say.accept("background: stopped: " + e.getMessage() + "; the load's figures are kept");
    }
  }

  // One task; a request of its that fails beyond what the task expects (the server gone, a reply unread) ends that task
  // alone, with a line, and the next one still starts.
  private BackgroundTask run(BackgroundPlan.Kind kind, int index) {
    long start = System.currentTimeMillis();
    try {
      return switch (kind) {
        case COMPACT -> compact();
        case VIEWBUILD -> viewBuild(index);
        case REPLICATE -> replicate(index);
        case NODESYNC -> nodeSync();
      };
    } catch (OneLineException e) {
      return new BackgroundTask(kind, kind.value(), start, -1, List.of(), -1, -1, "failed: " + e.getMessage());
    }
  }

  // POST /db/_compact, then GET /db until compact_running is false; then each design document's views in turn (POST
  // /db/_compact/ddoc, then its _info until compact_running is false), as CouchDB's smoosh compacts both. _active_tasks
  // for the progress of each.
  private BackgroundTask compact() {
    List<String> designs = designDocuments();
    String what = "POST /" + database + "/_compact" + (designs.isEmpty() ? "" : ", then /" + database
        + "/_compact/<ddoc> for its " + designs.size() + " design document" + (designs.size() == 1 ? "" : "s"));
    long before = fileBytes(database);
    long viewsBefore = viewBytes(designs);
    long start = System.currentTimeMillis();
    String refused = refusal(() -> client.exchange("POST", "/" + database + "/_compact", "{}"), 202);
    if (refused != null) {
      return new BackgroundTask(BackgroundPlan.Kind.COMPACT, what, start, -1, List.of(), before, -1, refused);
    }
    List<BackgroundTask.Progress> progress = new ArrayList<>();
    long deadline = start + plan.timeout().toMillis(); // the database and its views together
    String problem = followCompaction(progress, activeTask(task -> task.path("type").asText()
        .equals("database_compaction") && shardOf(task.path("database").asText()) ? task.path("progress").asInt(0)
        : -1), () -> ReplyJson.of(client.get("/" + database).body()), before, deadline);
    for (int i = 0; i < designs.size() && problem == null; i++) {
      String design = designs.get(i);
      String path = "/" + database + "/_compact/" + pathSegment(design);
      long viewBefore = viewBytes(List.of(design));
      problem = refusal(() -> client.exchange("POST", path, "{}"), 202);
      if (problem == null) {
        problem = followCompaction(progress, activeTask(task -> task.path("type").asText().equals("view_compaction")
            && shardOf(task.path("database").asText())
            && task.path("design_document").asText().equals("_design/" + design) ? task.path("progress").asInt(0) : -1),
            () -> viewIndex(design), viewBefore, deadline);
      } else {
        problem = "POST " + path + " " + problem;
      }
    }
    boolean loadEnded = Thread.interrupted(); // kept aside while the sizes after are read
    long after = fileBytes(database);
    long viewsAfter = viewBytes(designs);
    if (loadEnded) {
      Thread.currentThread().interrupt();
    }
    String views = designs.isEmpty() ? null : "the views on disk: " + megabytes(viewsBefore) + " -> "
        + megabytes(viewsAfter) + " MB";
    return new BackgroundTask(BackgroundPlan.Kind.COMPACT, what, start, problem == null ? lastRead(progress) : -1,
        progress, before, after, problem, -1, views);
  }

  /**
   * Follows one compaction, a database's or a design document's views', until it has ended. CouchDB answers the POST
   * before a cluster database's shards start compacting, so a read just after it may say none runs: the compaction has
   * started once a read says it runs, _active_tasks lists it or its file shrank; one never seen started (done between
   * two reads, with nothing to reclaim) is taken as ended after {@link #START_GRACE_MILLIS}.
   *
   * @param progress where each read goes
   * @param activeTask one read of _active_tasks: its progress (%), -1 where not listed
   * @param info one read of what says whether it runs: compact_running and sizes.file
   * @param bytesBefore its file before the POST, bytes; -1 unknown
   * @param deadline when it is no longer followed
   * @return null when it ended; else why not
   */
  private String followCompaction(List<BackgroundTask.Progress> progress, IntSupplier activeTask,
      Supplier<JsonNode> info, long bytesBefore, long deadline) {
    long posted = System.currentTimeMillis();
    AtomicBoolean started = new AtomicBoolean();
    // Asked right after each read of _active_tasks, which follow() has just added to the progress.
    BooleanSupplier ended = () -> {
      JsonNode now = info.get();
      boolean running = now.path("compact_running").asBoolean(true);
      long file = now.path("sizes").path("file").asLong(-1);
      if (running || (file >= 0 && file < bytesBefore) || progress.get(progress.size() - 1).percent() >= 0) {
        started.set(true);
      }
      return !running && (started.get() || System.currentTimeMillis() - posted > START_GRACE_MILLIS);
    };
    return follow(progress, activeTask, ended, deadline);
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
      for (JsonNode row : ReplyJson.of(client.get("/" + database + "/_design_docs").body()).path("rows")) {
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
    return ReplyJson.of(client.get("/" + database + "/_design/" + pathSegment(design) + "/_info").body())
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

  // A new design document, its view queried until built (the query answers once the index is up to date); then it is
  // deleted, so that the database's documents are the load's again, and its index files cleaned up.
  private BackgroundTask viewBuild(int index) {
    String ddoc = "_design/couchbench_background_" + index + "_" + System.currentTimeMillis();
    String path = "/" + database + "/" + ddoc;
    String what = "a view built: PUT " + path + " and a query of it";
    long start = System.currentTimeMillis();
    String refused = refusal(() -> client.exchange("PUT", path,
        "{\"views\":{\"all\":{\"map\":\"function (doc) { emit(doc._id, null); }\"}}}"), 201, 202);
    if (refused != null) {
      return new BackgroundTask(BackgroundPlan.Kind.VIEWBUILD, what, start, -1, List.of(), 0, -1, refused);
    }
    List<BackgroundTask.Progress> progress = new ArrayList<>();
    Awaited awaited = awaited(() -> client.exchange("GET", path + "/_view/all?limit=1", "", plan.timeout()), progress,
        activeTask(task -> task.path("type").asText().equals("indexer")
            && task.path("design_document").asText().equals(ddoc) ? task.path("progress").asInt(0) : -1));
    try {
      long bytes = ReplyJson.of(client.get(path + "/_info").body()).path("view_index").path("sizes").path("file")
          .asLong(-1);
      return new BackgroundTask(BackgroundPlan.Kind.VIEWBUILD, what, start, awaited.end(), progress, 0, bytes,
          awaited.problem());
    } finally {
      cleanUp("the design document " + ddoc, () -> {
        String rev = ReplyJson.of(client.get(path).body()).path("_rev").asText("");
        client.exchange("DELETE", path + "?rev=" + rev, "");
        client.exchange("POST", "/" + database + "/_view_cleanup", "{}");
      }, awaited);
    }
  }

  // POST /_replicate of the database to a new one, which CouchDB answers once the replication is done; _active_tasks'
  // replication entry for the documents written so far, against the source's count. The copy is deleted afterwards.
  private BackgroundTask replicate(int index) {
    String replica = database + "_background_replica_" + index;
    String what = "POST /_replicate of " + database + " to " + replica;
    long start = System.currentTimeMillis();
    long documents = Math.max(1, client.docCount(database));
    ObjectNode body = ReplicationBody.of(target, database, target, replica).put("create_target", true);
    List<BackgroundTask.Progress> progress = new ArrayList<>();
    IntSupplier activeTask = activeTask(task -> task.path("type").asText().equals("replication")
        && SchedulerJobs.replicatesTo(task, replica)
        ? (int) Math.min(100, 100 * task.path("docs_written").asLong() / documents) : -1);
    ScheduledJob job = new ScheduledJob(client, replica);
    Awaited awaited = awaited(() -> client.exchange("POST", "/_replicate", body.toString(), plan.timeout()), progress,
        () -> {
          job.read();
          return activeTask.getAsInt();
        });
    try {
      return new BackgroundTask(BackgroundPlan.Kind.REPLICATE, what, start, awaited.end(), progress, 0,
          fileBytes(replica), awaited.problem(), -1, job.describe());
    } finally {
      cleanUp("the copy " + replica, () -> client.exchange("DELETE", "/" + replica, ""), awaited);
    }
  }

  // A cluster node the load does not use restarted, then read until its copies of the database caught up.
  private BackgroundTask nodeSync() {
    String node = restartedNode.orElseThrow();
    String what = "POST /_node/" + node + "/_restart, then its copies of " + database + " caught up";
    long start = System.currentTimeMillis();
    NodeSync sync;
    try {
      sync = NodeSync.restart(client, database, node);
    } catch (OneLineException e) {
      return new BackgroundTask(BackgroundPlan.Kind.NODESYNC, what, start, -1, List.of(), -1, -1, "refused: "
          + e.getMessage(), -1, null);
    }
    List<BackgroundTask.Progress> progress = new ArrayList<>();
    String problem = follow(progress, sync::read, sync::caughtUp);
    // From the restart itself, as the detail's time away counts: the shard map's reads before it are not the task's.
    return new BackgroundTask(BackgroundPlan.Kind.NODESYNC, what, sync.restartMillis(), problem == null
        ? sync.caughtUpMillis() : -1, progress, -1, -1, problem, sync.backMillis(), sync.describe());
  }

  /**
   * How a request CouchDB answers once its work is done ended.
   *
   * @param end when it was seen to end, epoch milliseconds; -1 when it did not
   * @param problem why it did not; null when it ended
   * @param loadEnded whether the load ended while it was followed: the thread's interrupt, kept aside while the task is
   *     cleaned up
   */
  private record Awaited(long end, String problem, boolean loadEnded) {}

  // Sends the request aside and follows _active_tasks until it is answered; a 200 or 201 ends the task.
  private Awaited awaited(Supplier<CouchReply> request, List<BackgroundTask.Progress> progress, IntSupplier read) {
    CompletableFuture<String> answered = CompletableFuture.supplyAsync(() -> refusal(request, 200, 201))
        .exceptionally(failure -> "failed: " + failure.getMessage());
    String problem = follow(progress, read, answered::isDone);
    boolean loadEnded = Thread.interrupted();
    if (problem == null) {
      problem = answered.join();
    }
    return new Awaited(problem == null ? lastRead(progress) : -1, problem, loadEnded);
  }

  // What a task leaves behind is removed whatever happened to it; the load's interrupt is put back afterwards.
  private void cleanUp(String what, Runnable removal, Awaited awaited) {
    try {
      removal.run();
    } catch (OneLineException e) {
      say.accept("background: " + what + " could not be removed: " + e.getMessage());
    } finally {
      if (awaited.loadEnded()) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * One read of _active_tasks.
   *
   * @param percent the task's progress in an _active_tasks entry, -1 for another's
   * @return the read: the task's progress, -1 where it was not listed
   */
  private IntSupplier activeTask(ToIntFunction<JsonNode> percent) {
    return () -> {
      int seen = -1;
      try {
        for (JsonNode task : ReplyJson.of(client.get("/_active_tasks").body())) {
          seen = Math.max(seen, percent.applyAsInt(task));
        }
      } catch (OneLineException e) {
        seen = -1; // _active_tasks unread (a user who may not read it): the task's own end still counts
      }
      return seen;
    };
  }

  /**
   * Reads every 100 ms until the task has ended or the timeout.
   *
   * @param progress where each read goes
   * @param read one read: the task's progress (%), -1 where it was not seen
   * @param ended whether it has ended, asked after each read
   * @return null when it ended; else why not
   */
  private String follow(List<BackgroundTask.Progress> progress, IntSupplier read, BooleanSupplier ended) {
    return follow(progress, read, ended, System.currentTimeMillis() + plan.timeout().toMillis());
  }

  // The same until a deadline of the caller's, for a task of several steps (a database, then its views).
  private String follow(List<BackgroundTask.Progress> progress, IntSupplier read, BooleanSupplier ended,
      long deadline) {
    while (System.currentTimeMillis() < deadline) {
      int percent = read.getAsInt();
      progress.add(new BackgroundTask.Progress(System.currentTimeMillis(), percent)); // when the read was answered
      if (hasEnded(ended)) {
        return null;
      }
      try {
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
        Thread.sleep(READ_MILLIS);
      } catch (InterruptedException loadEnded) {
        Thread.currentThread().interrupt(); // the next task is not started
        return "the load ended before it did";
      }
    }
    return "did not end within -DbackgroundTimeout=" + plan.timeout().toSeconds() + " s: left to the server";
  }

  private static boolean hasEnded(BooleanSupplier ended) {
    try {
      return ended.getAsBoolean();
    } catch (OneLineException e) {
      return false;
    }
  }

  private static long lastRead(List<BackgroundTask.Progress> progress) {
    return progress.get(progress.size() - 1).epochMillis();
  }

  // A cluster's database is its shards: _active_tasks names them "shards/<range>/<database>.<suffix>".
  private boolean shardOf(String name) {
    return name.equals(database) || name.endsWith("/" + database) || name.contains("/" + database + ".");
  }

  // A database's file on disk, bytes; -1 where the server does not say.
  private long fileBytes(String name) {
    try {
      return client.databaseInfo(name).fileSize().orElse(-1);
    } catch (OneLineException | IllegalArgumentException e) {
      return -1;
    }
  }

  // null when the server answered as expected; else the refusal in words.
  private String refusal(Supplier<CouchReply> request, int... expected) {
    try {
      CouchReply reply = request.get();
      for (int status : expected) {
        if (reply.status() == status) {
          return null;
        }
      }
      return "refused: " + reply.status() + " " + reply.reason();
    } catch (CouchDbException e) {
      // The login worked for the load: a refusal here is of what the user may do, not of who it is.
      return "refused: " + (e.isAuthFailure() ? target.credentials().map(login -> "user '" + login.user() + "' is not"
          + " a server admin").orElse("no login given") + ", and background work needs one: give -Dcouchdb.user an"
          + " admin's name; the load goes on" : e.getMessage());
    }
  }

}
