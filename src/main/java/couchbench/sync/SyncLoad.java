package couchbench.sync;

import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.doIfOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.group;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.ReplyJson;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.CouchReply;
import couchbench.gatling.Pacing;
import couchbench.results.Histograms;
import couchbench.results.Progress;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A Sync run's load: the databases made fresh; each client's syncs, one every -DsyncInterval, each a group of its push
 * and its pull; an editor editing documents on the server meanwhile; then, once every client and the editor are done,
 * each client's last push, and once every client pushed, its last pull. After the load every client's store is
 * compared with the server: every document's leaves (conflicts included) and its winner.
 */
public final class SyncLoad implements ExperimentLoad<SyncFigures> {

  private static final String CLIENT = "sync.client";
  private static final String EDITS_START = "sync.editsStart";
  private static final Duration BARRIER_PAUSE = Duration.ofMillis(50);

  private final SyncPlan plan;
  private final CouchTarget target;
  private final SyncLedger ledger = new SyncLedger();
  private final AtomicInteger clientNumbers = new AtomicInteger();
  private final AtomicInteger doneSyncing = new AtomicInteger();
  private final AtomicInteger donePushing = new AtomicInteger();
  private final ConcurrentLinkedQueue<SyncClient> clients = new ConcurrentLinkedQueue<>();
  private volatile String pullsThrough = BULK_GET;

  private static final String BULK_GET = "_bulk_get";

  /**
   * @param plan the run's plan
   * @param target the CouchDB server
   */
  public SyncLoad(SyncPlan plan, CouchTarget target) {
    this.plan = plan;
    this.target = target;
  }

  /**
   * Before the load: the databases made fresh, and _bulk_get tried. Without it (or with -DbulkGet=false) the pulls
   * fetch as PouchDB does on such a server.
   *
   * @throws SyncException when _bulk_get fails for another reason than its absence: the server's error
   */
  @Override
  public void prepare() {
    CouchDbClient client = new CouchDbClient(target);
    for (int database = 0; database < plan.databases(); database++) {
      client.createDatabase(plan.database(database));
    }
    String fallback = "_all_docs?include_docs=true by keys for first revisions, GET ?open_revs= a document at a time"
        + " for the rest, as PouchDB does without _bulk_get";
    if (!plan.bulkGet()) {
      pullsThrough = fallback + " (-DbulkGet=false)";
      return;
    }
    CouchReply bulkGet = client.exchange("POST", "/" + plan.database(0) + "/_bulk_get?revs=true",
        "{\"docs\":[{\"id\":\"couchbench-no-such-document\"}]}");
    // A server without _bulk_get (CouchDB 1.x) refuses it as a request (4xx); any other failure is the server's.
    if (bulkGet.status() >= 500 || bulkGet.status() == 401 || bulkGet.status() == 403) {
      throw new SyncException("the server at " + target.baseUrl() + " failed a _bulk_get before the load ("
          + bulkGet.status() + " " + bulkGet.reason() + "): see its log, or run with -DbulkGet=false to pull without"
          + " it");
    }
    if (bulkGet.status() != 200) {
      pullsThrough = fallback + " (the server has no _bulk_get: " + bulkGet.status() + " " + bulkGet.reason() + ")";
      Console.say("sync: the server at " + target.baseUrl() + " has no _bulk_get (" + bulkGet.status() + " "
          + bulkGet.reason() + "): the clients pull through " + fallback);
    }
  }

  /** @return a client's whole life: its syncs, then its last push and pull once everyone is done */
  public ChainBuilder client() {
    return exec(session -> session.set(CLIENT, new SyncClient(clientNumbers.getAndIncrement(), plan, ledger)))
        .repeat(plan.syncs()).on(group("sync").on(exec(session -> {
          client(session).edit();
          return session;
        }).exec(push()).exec(pull())).exec(session -> {
          ledger.synced(session.isFailed());
          return session.markAsSucceeded();
        }).pause(plan.syncInterval()))
        .exec(barrier(doneSyncing, plan.clients() + (plan.serverEdits() > 0 ? 1 : 0)))
        .group("last push").on(push())
        .exec(barrier(donePushing, plan.clients()))
        .group("last pull").on(pull())
        .exec(session -> {
          clients.add(client(session));
          return session;
        });
  }

  // Waits until every one of them got there.
  private static ChainBuilder barrier(AtomicInteger arrived, int everyone) {
    return exec(session -> {
      arrived.incrementAndGet();
      return session;
    }).asLongAs(session -> arrived.get() < everyone).on(pause(BARRIER_PAUSE));
  }

  // After a cut, where the client got to is read back from its checkpoints on the server.
  private ChainBuilder resume() {
    return exec(request(http("resume: push checkpoint").get(session -> client(session).checkpointPath("push")),
        List.of(200, 404), (client, reply) -> client.resumed("push", reply)))
        .exec(request(http("resume: pull checkpoint").get(session -> client(session).checkpointPath("pull")),
            List.of(200, 404), (client, reply) -> client.resumed("pull", reply)));
  }

  private ChainBuilder push() {
    return doIf(session -> client(session).resuming()).then(resume())
        .exec(request(http("revs_diff").post(session -> "/" + client(session).database() + "/_revs_diff")
        .body(StringBody(session -> client(session).revsDiff())), List.of(200), SyncClient::revsDiffReply))
        .doIf(session -> client(session).hasToPush()).then(exec(request(http("bulk_docs new_edits=false")
            .post(session -> "/" + client(session).database() + "/_bulk_docs")
            .body(StringBody(session -> client(session).bulkDocs())), List.of(201, 202), (client, reply) -> {
              for (JsonNode row : reply) {
                if (row.has("error")) {
                  return "_bulk_docs refused " + row.path("id").asText() + ": " + row.path("error").asText();
                }
              }
              client.pushed(System.nanoTime());
              return "read";
            })))
        .exec(checkpoint("push"));
  }

  private ChainBuilder pull() {
    return exec(session -> {
      client(session).pullStarts();
      return session;
    }).asLongAs(session -> client(session).morePages() && !session.isFailed()).on(
        exec(request(http("changes").get(session -> client(session).changesPath()), List.of(200),
            SyncClient::changesReply))
            .doIf(session -> client(session).hasToPull() && !session.isFailed()).then(fetch())
            // -DdropEvery: the app closes after the pull's first page, before its checkpoint.
            .doIf(session -> client(session).cutThisSync()).then(exec(session -> {
              client(session).cut();
              ledger.cut();
              return session;
            })))
        .doIf(session -> !session.isFailed() && !client(session).resuming()).then(exec(session -> {
          client(session).pulled();
          return session;
        }).exec(checkpoint("pull")));
  }

  // The revisions a page of _changes named and the client lacks: by _bulk_get, or as PouchDB does without it.
  private ChainBuilder fetch() {
    return doIfOrElse(session -> pullsThrough.equals(BULK_GET)).then(exec(request(http("bulk_get")
            .post(session -> "/" + client(session).database() + "/_bulk_get?revs=true")
            .body(StringBody(session -> client(session).bulkGet())), List.of(200),
            (client, reply) -> client.bulkGetReply(reply, System.nanoTime()))))
        .orElse(doIf(session -> client(session).hasFirstRevisionsToPull()).then(exec(request(http("all_docs keys")
                .post(session -> "/" + client(session).database() + "/_all_docs?include_docs=true")
                .body(StringBody(session -> client(session).allDocsKeys())), List.of(200),
                (client, reply) -> client.allDocsReply(reply, System.nanoTime()))))
            .asLongAs(session -> client(session).hasToPull() && !session.isFailed()).on(exec(request(
                http("get open_revs").get(session -> client(session).openRevsPath()), List.of(200),
                (client, reply) -> client.openRevsReply(reply, System.nanoTime())))));
  }

  private ChainBuilder checkpoint(String direction) {
    return exec(request(http(direction + " checkpoint").put(session -> client(session).checkpointPath(direction))
        .body(StringBody(session -> client(session).checkpoint(direction))), List.of(201, 202),
        (client, reply) -> client.checkpointed(direction, reply)));
  }

  // A request whose status must be one of those given, and whose JSON reply the client takes: "read", or what is wrong.
  private ChainBuilder request(HttpRequestActionBuilder request, List<Integer> okStatuses,
      BiFunction<SyncClient, JsonNode, String> take) {
    return CouchHttp.stopOnRefusal(target, request.check(status().in(okStatuses),
        bodyBytes().transformWithSession((body, session) -> take.apply(client(session), ReplyJson.of(body)))
            .is("read")));
  }

  /**
   * @return the editor's chain: -DserverEdits documents edited on the server while the clients sync, each at its
   *     intended start, spread evenly over the syncs
   */
  public ChainBuilder editor() {
    long everyNanos = Math.max(1, plan.syncInterval().toNanos() * plan.syncs() / Math.max(1, plan.serverEdits()));
    SplittableRandom random = new SplittableRandom(plan.seed());
    return exec(session -> session.set(EDITS_START, System.nanoTime())).repeat(plan.serverEdits(), "edit")
        .on(Pacing.untilIntendedStart(session -> session.getLong(EDITS_START) + session.getInt("edit") * everyNanos)
        .exec(session -> {
      int client = random.nextInt(plan.clients());
      return session.remove("editStatus").set("editPath", "/" + plan.database(plan.databaseOf(client)) + "/"
          + String.format(Locale.ROOT, "client%05d-%04d", client, random.nextInt(plan.docsPerClient())));
    }).exec(CouchHttp.stopOnRefusal(target, http("server edit: read").get("#{editPath}")
        .check(status().in(200, 404).saveAs("editStatus"), bodyString().saveAs("editDoc"))))
        // A document its client has not pushed yet is not there to edit.
        // A client may push a revision between the read and the write: CouchDB then refuses it (409), as it would
        // any editor's, and it is counted, not failed.
        .doIf(session -> session.contains("editStatus") && session.getInt("editStatus") == 200).then(exec(
            CouchHttp.stopOnRefusal(target, http("server edit").put("#{editPath}").body(StringBody(SyncLoad::edited))
                .check(status().transform(status -> {
                  ledger.serverEdit(status == 409);
                  return status;
                }).in(201, 202, 409))))))
        .exec(barrier(doneSyncing, plan.clients() + 1));
  }

  private static String edited(Session session) {
    ObjectNode doc = (ObjectNode) ReplyJson.of(session.getString("editDoc").getBytes(StandardCharsets.UTF_8));
    return doc.put("text", "edited on the server").toString();
  }

  private static SyncClient client(Session session) {
    return session.get(CLIENT);
  }

  /** @return the syncs ended so far and those that failed, for the progress line */
  @Override
  public List<Progress.Source> progress() {
    return List.of(Progress.Source.of("syncs", () -> new Progress.Counts(ledger.syncs(), ledger.failedSyncs())));
  }

  /** @return the run's figures, after the load: every client compared with the server */
  @Override
  public SyncFigures figures() {
    CouchDbClient client = new CouchDbClient(target);
    long serverDocs = 0;
    long serverConflicts = 0;
    int equal = 0;
    String firstDifference = "";
    for (int database = 0; database < plan.databases(); database++) {
      Map<String, TreeSet<String>> leaves = leaves(client, plan.database(database));
      Map<String, String> winners = winners(client, plan.database(database));
      serverDocs += leaves.size();
      serverConflicts += leaves.values().stream().filter(revs -> revs.size() > 1).count();
      for (SyncClient synced : clients) {
        if (synced.database().equals(plan.database(database))) {
          String difference = difference(synced, leaves, winners);
          equal += difference.isEmpty() ? 1 : 0;
          firstDifference = firstDifference.isEmpty() ? difference : firstDifference;
        }
      }
    }
    long clientConflicts = clients.stream().mapToLong(synced -> synced.store().conflicts()).sum();
    return new SyncFigures(plan.describe(), ledger.syncs(), ledger.failedSyncs(), ledger.pushedCount(),
        ledger.pulledCount(), pullsThrough, Histograms.encode(ledger.reach()), ledger.cuts(), ledger.readAgainCount(),
        ledger.serverEdits(), ledger.serverEditsRefused(),
        serverDocs, serverConflicts, clientConflicts, clients.size(), equal, firstDifference);
  }

  private static String difference(SyncClient client, Map<String, TreeSet<String>> leaves,
      Map<String, String> winners) {
    Map<String, TreeSet<String>> own = client.store().leafRevisions();
    for (Map.Entry<String, TreeSet<String>> doc : leaves.entrySet()) {
      if (!doc.getValue().equals(own.get(doc.getKey()))) {
        return "client " + client.number() + " has " + doc.getKey() + " at " + own.get(doc.getKey()) + ", the server at"
            + " " + doc.getValue();
      }
      String winner = client.store().winner(doc.getKey()).get(0);
      if (!winner.equals(winners.get(doc.getKey()))) {
        return "client " + client.number() + " makes " + winner + " the winner of " + doc.getKey() + ", the server "
            + winners.get(doc.getKey());
      }
    }
    return own.size() == leaves.size() ? "" : "client " + client.number() + " has " + own.size() + " documents, the"
        + " server " + leaves.size();
  }

  // Every document's leaves, conflicts included, from _changes?style=all_docs.
  private static Map<String, TreeSet<String>> leaves(CouchDbClient client, String database) {
    Map<String, TreeSet<String>> leaves = new TreeMap<>();
    JsonNode changes = ReplyJson.of(client.get("/" + database + "/_changes?style=all_docs").body());
    for (JsonNode change : changes.path("results")) {
      TreeSet<String> revs = new TreeSet<>();
      change.path("changes").forEach(rev -> revs.add(rev.path("rev").asText()));
      leaves.put(change.path("id").asText(), revs);
    }
    return leaves;
  }

  private static Map<String, String> winners(CouchDbClient client, String database) {
    Map<String, String> winners = new TreeMap<>();
    for (JsonNode row : ReplyJson.of(client.get("/" + database + "/_all_docs").body()).path("rows")) {
      winners.put(row.path("id").asText(), row.path("value").path("rev").asText());
    }
    return winners;
  }

  @Override
  public String describe() {
    return plan.describe();
  }

  @Override
  public Summary<SyncFigures> summary() {
    return new SyncSummary();
  }
}
