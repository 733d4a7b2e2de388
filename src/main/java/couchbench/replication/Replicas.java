package couchbench.replication;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.ReplyJson;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.DocWriteReply;
import couchbench.couchdb.ReplicationBody;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The replications' databases and documents: each source made fresh and filled, each target made fresh and empty,
 * checked before the load (the target server is CouchDB, takes the login, and the source's server replicates to it);
 * the bodies that start each replication; after the load, each target compared with its source, id by id and revision
 * by revision.
 */
final class Replicas {

  private static final int FILL_BATCH = 1000;
  private static final int PAGE = 10_000;

  private final ReplicatePlan plan;
  private final CouchTarget source;
  private final CouchTarget target;

  /**
   * @param plan the run's plan
   * @param source the server of the sources, which runs the replications
   * @param target the server of the targets: the same, or -Dcouchdb.target's, with the same login
   */
  Replicas(ReplicatePlan plan, CouchTarget source, CouchTarget target) {
    this.plan = plan;
    this.source = source;
    this.target = target;
  }

  /**
   * @param written whether it is written while the replication runs
   * @param number a document's number in its source
   * @return its id: the documents there before the replication are doc-..., those written while it runs write-...
   */
  static String documentId(boolean written, int number) {
    return String.format(Locale.ROOT, written ? "write-%07d" : "doc-%07d", number);
  }

  /**
   * @param id its id
   * @return a small document: its id, its number and a line of text
   */
  static String document(String id) {
    return "{\"_id\":\"" + id + "\",\"kind\":\"replicated\",\"text\":\"a document to replicate, " + id + "\"}";
  }

  /**
   * Before the load: the target server checked, the databases made, the sources filled, one replication tried.
   *
   * @throws ReplicationException when the target server is not CouchDB, or the source's server cannot replicate to it
   * @throws couchbench.couchdb.CouchDbException when a server does not answer, or refuses the login
   */
  void prepare() {
    CouchDbClient sources = new CouchDbClient(source);
    CouchDbClient targets = new CouchDbClient(target);
    if (!target.baseUrl().equals(source.baseUrl())) {
      CouchReply welcome = targets.get("/");
      if (welcome.status() != 200 || !ReplyJson.of(welcome.body()).has("couchdb")) {
        throw new ReplicationException("-Dcouchdb.target=" + target.baseUrl() + " is not CouchDB: GET / answered "
            + welcome.status() + " " + welcome.reason() + "; give a CouchDB server's URL");
      }
    }
    if (plan.continuous() && sources.get("/_scheduler/jobs").status() != 200) {
      throw new ReplicationException("the server at " + source.baseUrl() + " has no replication scheduler (GET"
          + " /_scheduler/jobs is not there): continuous replications are _replicator documents, which CouchDB 2.x and"
          + " later run and pouchdb-server does not; give -Dmode=oneshot");
    }
    long start = System.nanoTime();
    for (int job = 0; job < plan.jobs(); job++) {
      sources.createDatabase(plan.source(job));
      targets.createDatabase(plan.target(job));
      fill(sources, plan.source(job));
    }
    Console.say(String.format(Locale.ROOT, "replicate: %d source%s of %,d documents written in %.1f s", plan.jobs(),
        plan.jobs() == 1 ? "" : "s", plan.docs(), (System.nanoTime() - start) / 1e9));
    // A replication of one document that is not there: the server refuses here what it would refuse in the load (a
    // target it cannot reach, a login the target refuses), in one line. (pouchdb-server takes an empty doc_ids as all.)
    ObjectNode none = replication(0);
    none.putArray("doc_ids").add("couchbench-no-such-document");
    CouchReply tried = sources.exchange("POST", "/_replicate", none.toString());
    if (tried.status() != 200) {
      throw new ReplicationException("CouchDB at " + source.baseUrl() + " refused to replicate " + plan.source(0)
          + " to " + target.baseUrl() + "/" + plan.target(0) + ": " + tried.status() + " " + tried.reason()
          + (tried.status() == 401 || tried.reason().contains("unauthorized") ? "; the target refuses"
          + " -Dcouchdb.user's login" : ""));
    }
  }

  private void fill(CouchDbClient client, String database) {
    for (int first = 0; first < plan.docs(); first += FILL_BATCH) {
      int count = Math.min(FILL_BATCH, plan.docs() - first);
      StringBuilder docs = new StringBuilder("{\"docs\":[");
      for (int number = first; number < first + count; number++) {
        docs.append(number == first ? "" : ",").append(document(documentId(false, number)));
      }
      DocWriteReply reply = client.insertDocuments(database, docs.append("]}").toString()
          .getBytes(StandardCharsets.UTF_8), count);
      if (reply.stored() != count) {
        throw new ReplicationException("CouchDB at " + source.baseUrl() + " stored " + reply.stored() + " of " + count
            + " documents filling " + database + ": " + reply.verdict());
      }
    }
  }

  /**
   * @param job a replication, from 0
   * @return the body that replicates the job's source to its target ({@link ReplicationBody})
   */
  ObjectNode replication(int job) {
    return ReplicationBody.of(source, plan.source(job), target, plan.target(job));
  }

  /**
   * @param job a replication, from 0
   * @return the id of its _replicator document
   */
  String replicatorId(int job) {
    return plan.prefix() + "-" + job;
  }

  /**
   * After the load: each target against its source, every id and its revision.
   *
   * @return each job's comparison
   */
  List<ReplicateFigures.Comparison> compare() {
    CouchDbClient sources = new CouchDbClient(source);
    CouchDbClient targets = new CouchDbClient(target);
    List<ReplicateFigures.Comparison> all = new ArrayList<>();
    for (int job = 0; job < plan.jobs(); job++) {
      Map<String, String> from = revisions(sources, plan.source(job));
      Map<String, String> to = revisions(targets, plan.target(job));
      long missing = from.keySet().stream().filter(id -> !to.containsKey(id)).count();
      long differing = from.entrySet().stream().filter(doc -> to.containsKey(doc.getKey())
          && !to.get(doc.getKey()).equals(doc.getValue())).count();
      long extra = to.keySet().stream().filter(id -> !from.containsKey(id)).count();
      all.add(new ReplicateFigures.Comparison(job, from.size(), to.size(), missing, differing, extra,
          digest(from), digest(to)));
    }
    return all;
  }

  // Every document's id and winning revision, _all_docs page after page.
  private static Map<String, String> revisions(CouchDbClient client, String database) {
    Map<String, String> revisions = new TreeMap<>();
    String start = "";
    while (true) {
      CouchReply page = client.get("/" + database + "/_all_docs?limit=" + (PAGE + 1)
          + (start.isEmpty() ? "" : "&startkey=" + URLEncoder.encode("\"" + start + "\"", StandardCharsets.UTF_8)));
      JsonNode rows = ReplyJson.of(page.body()).path("rows");
      if (page.status() != 200 || !rows.isArray()) {
        throw new ReplicationException("GET /" + database + "/_all_docs answered " + page.status() + " "
            + page.reason() + ": the replica could not be compared");
      }
      for (int row = 0; row < Math.min(rows.size(), PAGE); row++) {
        revisions.put(rows.get(row).path("id").asText(), rows.get(row).path("value").path("rev").asText());
      }
      if (rows.size() <= PAGE) {
        return revisions;
      }
      start = rows.get(PAGE).path("id").asText();
    }
  }

  // SHA-256 of every "id rev" line in id order: two databases with the same documents have the same digest.
  private static String digest(Map<String, String> revisions) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      revisions.forEach((id, rev) -> sha.update((id + " " + rev + "\n").getBytes(StandardCharsets.UTF_8)));
      return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  /** After the report: the _replicator documents removed (their bodies carry the login). */
  void cleanUp() {
    if (!plan.continuous()) {
      return;
    }
    CouchDbClient client = new CouchDbClient(source);
    for (int job = 0; job < plan.jobs(); job++) {
      String id = replicatorId(job);
      client.document("_replicator", id).ifPresent(doc -> client.exchange("DELETE", "/_replicator/" + id + "?rev="
          + doc.path("_rev").asText(), ""));
    }
  }
}
