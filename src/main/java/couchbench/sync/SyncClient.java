package couchbench.sync;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One client syncing as PouchDB does, on its virtual user's thread: its edits to its local store, then a push
 * ({@code _revs_diff}, {@code _bulk_docs} with {@code new_edits=false}, its {@code _local} checkpoint) and a pull
 * ({@code _changes} since its checkpoint with {@code style=all_docs}, {@code _bulk_get?revs=true} of the revisions it
 * lacks, its checkpoint). Without _bulk_get its pull fetches what it lacks as PouchDB then does: first revisions
 * through {@code _all_docs?include_docs=true} by keys, the rest a document at a time by {@code GET ?open_revs=}. This
 * class makes each request's body and takes each reply; the chain sends them.
 */
final class SyncClient {

  /** Rows a page of _changes. */
  static final int PAGE = 100;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final int number;
  private final String database;
  private final SyncPlan plan;
  private final SplittableRandom random;
  private final LocalStore store = new LocalStore();
  private final SyncLedger ledger;
  private long pushed;
  private long pushing;
  private String since = "0";
  private String reading = "0";
  private boolean morePages;
  private final List<String[]> toPush = new ArrayList<>();
  // The revisions its pull lacks, by document: what the current page of _changes named and it has not fetched yet.
  private final Map<String, List<String>> toPull = new LinkedHashMap<>();
  private final Map<String, String> checkpointRevs = new HashMap<>();
  private int syncs;
  private boolean cutThisSync;
  private boolean resuming;
  private boolean firstPullAfterResume;

  /**
   * @param number the client's number, from 0
   * @param plan the run's plan
   * @param ledger where pushes and their arrival at other clients are timed
   */
  SyncClient(int number, SyncPlan plan, SyncLedger ledger) {
    this.number = number;
    this.plan = plan;
    this.ledger = ledger;
    this.database = plan.database(plan.databaseOf(number));
    this.random = new SplittableRandom(plan.seed() * 1_000_003L + number);
  }

  /** @return its database's name */
  String database() {
    return database;
  }

  /** @return its number */
  int number() {
    return number;
  }

  /**
   * @param id a document
   * @return its id in a path
   */
  static String pathOf(String id) {
    return URLEncoder.encode(id, StandardCharsets.UTF_8);
  }

  /**
   * A sync begins: the first creates the client's documents; each later one edits -DeditsPerSync documents, its own
   * or (one time in three) any of its database's it has.
   */
  void edit() {
    cutThisSync = plan.dropEvery() > 0 && (syncs + 1) % plan.dropEvery() == 0;
    if (syncs++ == 0) {
      for (int doc = 0; doc < plan.docsPerClient(); doc++) {
        store.edit(String.format(Locale.ROOT, "client%05d-%04d", number, doc), hash());
      }
      return;
    }
    List<String> all = store.ids();
    for (int edit = 0; edit < plan.editsPerSync(); edit++) {
      String id = random.nextInt(3) == 0 && !all.isEmpty() ? all.get(random.nextInt(all.size()))
          : String.format(Locale.ROOT, "client%05d-%04d", number, random.nextInt(plan.docsPerClient()));
      store.edit(id, hash());
    }
  }

  private String hash() {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** @return the body of its push's _revs_diff: each document edited since its last push, its leaves' revisions */
  String revsDiff() {
    pushing = store.sequence();
    ObjectNode body = JSON.createObjectNode();
    store.editedSince(pushed).forEach((id, revs) -> revs.forEach(body.withArray(id)::add));
    return body.toString();
  }

  /**
   * @param reply _revs_diff's reply: per document, the revisions the server lacks
   * @return "read", or what is wrong with it
   */
  String revsDiffReply(JsonNode reply) {
    toPush.clear();
    if (!reply.isObject()) {
      return "_revs_diff's reply is not an object";
    }
    reply.fields().forEachRemaining(doc -> doc.getValue().path("missing")
        .forEach(rev -> toPush.add(new String[] {doc.getKey(), rev.asText()})));
    return "read";
  }

  /** @return whether its push has revisions to send */
  boolean hasToPush() {
    return !toPush.isEmpty();
  }

  /** @return the body of its push's _bulk_docs: each revision the server lacks, with its history, new_edits false */
  String bulkDocs() {
    ObjectNode body = JSON.createObjectNode().put("new_edits", false);
    ArrayNode docs = body.putArray("docs");
    for (String[] idAndRev : toPush) {
      List<String> history = store.history(idAndRev[0], idAndRev[1]);
      ObjectNode doc = docs.addObject().put("_id", idAndRev[0]).put("_rev", idAndRev[1]);
      ObjectNode revisions = doc.putObject("_revisions").put("start", LocalStore.generation(history.get(0)));
      ArrayNode ids = revisions.putArray("ids");
      history.forEach(rev -> ids.add(rev.substring(rev.indexOf('-') + 1)));
      doc.put("client", number).put("text", "edited by client " + number);
    }
    return body.toString();
  }

  /**
   * Its push was acknowledged.
   *
   * @param nanos when, on System.nanoTime's clock
   */
  void pushed(long nanos) {
    toPush.forEach(idAndRev -> ledger.pushed(idAndRev[1], number, nanos));
    toPush.clear();
    pushed = pushing;
  }

  /**
   * @param direction "push" or "pull"
   * @return the path of its checkpoint's _local document
   */
  String checkpointPath(String direction) {
    return "/" + database + "/_local/couchbench-sync-" + number + "-" + direction;
  }

  /**
   * @param direction "push" or "pull"
   * @return the checkpoint's body: where that direction got to, with the revision it replaces
   */
  String checkpoint(String direction) {
    ObjectNode body = JSON.createObjectNode();
    if (checkpointRevs.containsKey(direction)) {
      body.put("_rev", checkpointRevs.get(direction));
    }
    return (direction.equals("push") ? body.put("last_seq", pushed) : body.put("last_seq", since)).toString();
  }

  /**
   * @param direction "push" or "pull"
   * @param reply the checkpoint PUT's reply, with its new revision
   * @return "read", or what is wrong
   */
  String checkpointed(String direction, JsonNode reply) {
    if (!reply.path("rev").isTextual()) {
      return "the checkpoint's reply has no rev";
    }
    checkpointRevs.put(direction, reply.path("rev").asText());
    return "read";
  }

  /** @return whether this sync is cut after the first page of its pull (-DdropEvery) */
  boolean cutThisSync() {
    return cutThisSync;
  }

  /**
   * Its sync is cut mid-pull, as an app closed: what it held in memory is gone (where its pull and push got to, its
   * checkpoints' revisions), its store is not (PouchDB keeps it on disk).
   */
  void cut() {
    cutThisSync = false;
    morePages = false;
    resuming = true;
    since = null;
    pushed = -1;
    checkpointRevs.clear();
  }

  /** @return whether its next sync must first read its checkpoints back from the server */
  boolean resuming() {
    return resuming;
  }

  /**
   * @param direction "push" or "pull"
   * @param reply its checkpoint document, as the server has it
   * @return "read", or what is wrong
   */
  String resumed(String direction, JsonNode reply) {
    // None yet (404): that direction starts from the beginning, as PouchDB's does.
    boolean none = reply.path("error").asText().equals("not_found");
    if (!none && (!reply.has("last_seq") || !reply.path("_rev").isTextual())) {
      return "the " + direction + " checkpoint has no last_seq or _rev";
    }
    if (!none) {
      checkpointRevs.put(direction, reply.path("_rev").asText());
    }
    if (direction.equals("push")) {
      pushed = none ? 0 : reply.path("last_seq").asLong();
    } else {
      since = none ? "0" : reply.path("last_seq").asText();
      resuming = false;
      firstPullAfterResume = true;
    }
    return "read";
  }

  /** Its pull begins, from its checkpoint. */
  void pullStarts() {
    reading = since;
    morePages = true;
  }

  /** @return whether its pull has another page of _changes to read */
  boolean morePages() {
    return morePages;
  }

  /** @return the path of its pull's next page of _changes */
  String changesPath() {
    return "/" + database + "/_changes?style=all_docs&limit=" + PAGE + "&since="
        + URLEncoder.encode(reading, StandardCharsets.UTF_8);
  }

  /**
   * @param reply a page of _changes
   * @return "read", or what is wrong with it
   */
  String changesReply(JsonNode reply) {
    toPull.clear();
    JsonNode results = reply.path("results");
    if (!results.isArray() || reply.path("last_seq").isMissingNode()) {
      return "not a page of _changes";
    }
    for (JsonNode change : results) {
      String id = change.path("id").asText();
      for (JsonNode rev : change.path("changes")) {
        if (!store.has(id, rev.path("rev").asText())) {
          toPull.computeIfAbsent(id, any -> new ArrayList<>()).add(rev.path("rev").asText());
        } else if (firstPullAfterResume) {
          ledger.readAgain();
        }
      }
    }
    reading = reply.path("last_seq").asText();
    morePages = results.size() == PAGE;
    return "read";
  }

  /** @return whether its pull's page names revisions it lacks */
  boolean hasToPull() {
    return !toPull.isEmpty();
  }

  /** @return the body of its pull's _bulk_get: the revisions it lacks */
  String bulkGet() {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode docs = body.putArray("docs");
    toPull.forEach((id, revs) -> revs.forEach(rev -> docs.addObject().put("id", id).put("rev", rev)));
    return body.toString();
  }

  /**
   * @param reply _bulk_get's reply: each revision with its history
   * @param nanos when it came, on System.nanoTime's clock
   * @return "read", or what is wrong with it
   */
  String bulkGetReply(JsonNode reply, long nanos) {
    int asked = toPull.values().stream().mapToInt(List::size).sum();
    toPull.clear();
    int received = 0;
    for (JsonNode result : reply.path("results")) {
      for (JsonNode doc : result.path("docs")) {
        if (!doc.path("ok").isObject()) {
          return "_bulk_get could not give " + result.path("id").asText() + ": " + doc.path("error");
        }
        String wrong = take(doc.path("ok"), nanos, "_bulk_get");
        if (!wrong.equals("read")) {
          return wrong;
        }
        received++;
      }
    }
    return received == asked ? "read" : "_bulk_get gave " + received + " of " + asked + " revisions";
  }

  /** @return whether, without _bulk_get, its pull lacks first revisions, which _all_docs gives without a history */
  boolean hasFirstRevisionsToPull() {
    return toPull.values().stream().flatMap(List::stream).anyMatch(rev -> rev.startsWith("1-"));
  }

  /** @return the body of its pull's _all_docs?include_docs=true: the documents whose first revision it lacks */
  String allDocsKeys() {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode keys = body.putArray("keys");
    toPull.forEach((id, revs) -> {
      if (revs.stream().anyMatch(rev -> rev.startsWith("1-"))) {
        keys.add(id);
      }
    });
    return body.toString();
  }

  /**
   * Takes each document whose winner is the first revision it lacks; the others (edited since, or that revision not
   * the winner) stay to be fetched by open_revs.
   *
   * @param reply _all_docs's reply, with each document
   * @param nanos when it came, on System.nanoTime's clock
   * @return "read", or what is wrong with it
   */
  String allDocsReply(JsonNode reply, long nanos) {
    if (!reply.path("rows").isArray()) {
      return "_all_docs's reply has no rows";
    }
    for (JsonNode row : reply.path("rows")) {
      String id = row.path("doc").path("_id").asText();
      String rev = row.path("doc").path("_rev").asText();
      List<String> revs = toPull.get(id);
      if (rev.startsWith("1-") && revs != null && revs.remove(rev)) {
        if (store.receive(id, List.of(rev))) {
          ledger.reached(rev, number, nanos);
        }
        if (revs.isEmpty()) {
          toPull.remove(id);
        }
      }
    }
    return "read";
  }

  /** @return the path of its pull's next GET ?open_revs: one document's revisions it lacks, with their histories */
  String openRevsPath() {
    Map.Entry<String, List<String>> next = toPull.entrySet().iterator().next();
    ArrayNode revs = JSON.createArrayNode();
    next.getValue().forEach(revs::add);
    return "/" + database + "/" + pathOf(next.getKey()) + "?revs=true&open_revs="
        + URLEncoder.encode(revs.toString(), StandardCharsets.UTF_8);
  }

  /**
   * @param reply GET ?open_revs's reply: a list of {"ok": the revision} or {"missing": rev}
   * @param nanos when it came, on System.nanoTime's clock
   * @return "read", or what is wrong with it
   */
  String openRevsReply(JsonNode reply, long nanos) {
    Map.Entry<String, List<String>> asked = toPull.entrySet().iterator().next();
    toPull.remove(asked.getKey());
    if (!reply.isArray() || reply.size() != asked.getValue().size()) {
      return "GET " + asked.getKey() + "?open_revs= gave " + (reply.isArray() ? reply.size() : "no list") + " for "
          + asked.getValue().size() + " revisions";
    }
    for (JsonNode result : reply) {
      if (!result.path("ok").isObject()) {
        return "GET " + asked.getKey() + "?open_revs= could not give " + result;
      }
      String wrong = take(result.path("ok"), nanos, "GET ?open_revs=");
      if (!wrong.equals("read")) {
        return wrong;
      }
    }
    return "read";
  }

  // A revision pulled, with its _revisions history: into the store, timed when it is new here.
  private String take(JsonNode doc, long nanos, String from) {
    int start = doc.path("_revisions").path("start").asInt();
    List<String> history = new ArrayList<>();
    JsonNode ids = doc.path("_revisions").path("ids");
    for (int i = 0; i < ids.size(); i++) {
      history.add((start - i) + "-" + ids.get(i).asText());
    }
    if (history.isEmpty()) {
      return from + " gave " + doc.path("_id").asText() + " without _revisions";
    }
    if (store.receive(doc.path("_id").asText(), history)) {
      ledger.reached(history.get(0), number, nanos);
    }
    return "read";
  }

  /** Its pull read every page: its checkpoint moves to the last. */
  void pulled() {
    since = reading;
    firstPullAfterResume = false;
  }

  /** @return its store, for the comparison with the server after the load */
  LocalStore store() {
    return store;
  }
}
