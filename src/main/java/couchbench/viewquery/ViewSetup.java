package couchbench.viewquery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.DesignDocument;
import couchbench.couchdb.DocWriteReply;
import couchbench.couchdb.IndexBuildFollower;
import couchbench.scaleout.Injector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Before the load: the seed's database, documents and view, put in place idempotently (documents
 * have fixed ids, so a second run adds nothing; a design document with another map function is
 * replaced; with -Dsetup=fresh the database is dropped first, so that the view is built anew), then the first, index-building query, followed as long as the build takes, timed and checked. Any
 * problem with the view stops the run here, before a single measured request.
 */
public final class ViewSetup {

  /** Documents per _bulk_docs request when adding rows. */
  static final int BATCH = 1000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private ViewSetup() {}

  /**
   * {@link #prepare(CouchDbClient, ViewQueryPlan)} by injector 0 of a run of several; the others wait until the view
   * answers with every row set up (then their first query reads the index injector 0 built).
   *
   * @param client the setup client
   * @param plan the database, view and rows
   * @param injector this injector
   * @return the first query's time and the view's row count
   * @throws ViewQueryException when the view is missing, broken or holds other rows than set up
   * @throws couchbench.scaleout.ScaleOutException when injector 0's setup is not ready in time
   */
  public static IndexBuild prepare(CouchDbClient client, ViewQueryPlan plan, Injector injector) {
    if (!plan.setup()) {
      return prepare(client, plan); // nothing is written: every injector checks the view itself
    }
    return injector.setUpOnce("view " + plan.path() + " with " + plan.expectedRows() + " rows",
        () -> prepare(client, plan), () -> ready(client, plan));
  }

  /** The first query, once the view answers with all the rows set up; empty before. */
  private static Optional<IndexBuild> ready(CouchDbClient client, ViewQueryPlan plan) {
    FirstQuery first = FirstQuery.of(client, plan);
    CouchReply reply = first.reply();
    if (reply.status() != 200) {
      return Optional.empty();
    }
    try {
      JsonNode json = JSON.readTree(reply.body());
      return json != null && json.path("total_rows").asLong(-1) == plan.expectedRows()
          ? Optional.of(new IndexBuild(first.millis(), plan.expectedRows(), reply.body().length, null, true))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Sets up (unless the plan says not to) and sends the index-building query.
   *
   * @param client the setup client
   * @param plan the database, view and rows
   * @return the index build's time and the view's row count
   * @throws ViewQueryException when the view is missing, broken or holds other rows than set up
   * @throws couchbench.couchdb.CouchDbException when CouchDB refuses a setup request
   */
  public static IndexBuild prepare(CouchDbClient client, ViewQueryPlan plan) {
    Optional<DesignDocument.Outcome> design = Optional.empty();
    if (plan.setup()) {
      if (plan.fresh()) {
        client.deleteDatabase(plan.database());
      }
      client.ensureDatabase(plan.database());
      insertDocuments(client, plan);
      design = Optional.of(plan.design().putInPlace(client, plan.database()));
    }
    FirstQuery first = FirstQuery.of(client, plan);
    CouchReply reply = first.reply();
    long totalRows = totalRows(plan, reply);
    if (plan.setup() && totalRows != plan.expectedRows()) {
      throw new ViewQueryException("view " + plan.path() + " has " + totalRows + " rows, expected "
          + plan.expectedRows() + " (the seed's 2 + -Drows=" + plan.rows() + "): the database holds other"
          + " documents; drop it or choose another -Ddatabase");
    }
    return new IndexBuild(first.millis(), totalRows, reply.body().length, design.orElse(null), false);
  }

  /**
   * The view's query that CouchDB answers once its index is built, followed as long as the build takes.
   *
   * @param reply the view's reply
   * @param millis its time, from sending to the whole reply
   */
  private record FirstQuery(CouchReply reply, double millis) {

    static FirstQuery of(CouchDbClient client, ViewQueryPlan plan) {
      try (IndexBuildFollower follower = IndexBuildFollower.start(client, plan.database(), plan.design().name())) {
        long start = System.nanoTime();
        CouchReply reply = follower.await("GET", plan.path(), "");
        return new FirstQuery(reply, (System.nanoTime() - start) / 1e6);
      }
    }
  }

  /**
   * The seed's two documents and {@code rows} more, each with a fixed id.
   *
   * @param rows documents added to the seed's
   * @return the documents, as JSON objects
   */
  static List<ObjectNode> documents(int rows) {
    List<ObjectNode> docs = new ArrayList<>();
    docs.add(doc("couchbench-seed-learn", "learn"));
    docs.add(doc("couchbench-seed-erlang", "erlang"));
    for (int i = 1; i <= rows; i++) {
      docs.add(doc(String.format("couchbench-row-%07d", i), "task " + i));
    }
    return docs;
  }

  // Ids already there answer "conflict": that document was set up by an earlier run, which is fine.
  private static void insertDocuments(CouchDbClient client, ViewQueryPlan plan) {
    List<ObjectNode> docs = documents(plan.rows());
    for (int from = 0; from < docs.size(); from += BATCH) {
      List<ObjectNode> batch = docs.subList(from, Math.min(docs.size(), from + BATCH));
      ObjectNode body = JSON.createObjectNode();
      body.putArray("docs").addAll(batch);
      DocWriteReply reply = client.insertDocuments(
          plan.database(), body.toString().getBytes(StandardCharsets.UTF_8), batch.size());
      List<String> problems = reply.problems().stream().filter(p -> !p.equals("rejected: conflict")).toList();
      if (!problems.isEmpty()) {
        throw new ViewQueryException("setting up the documents of " + plan.database() + " failed: "
            + String.join(", ", problems));
      }
    }
  }

  private static long totalRows(ViewQueryPlan plan, CouchReply reply) {
    String view = "view " + plan.path();
    if (reply.status() == 404) {
      throw new ViewQueryException(view + " is missing (404 " + reply.reason() + "): "
          + (plan.setup() ? "CouchDB did not keep the design document's view"
              : "create it, or run with -Dsetup=true to have couchbench set it up"));
    }
    if (reply.status() != 200) {
      throw new ViewQueryException(view + " is broken (" + reply.status() + " " + reply.reason()
          + "): check its map function" + (plan.setup() ? "" : ", or run with -Dsetup=true to replace it"));
    }
    JsonNode json;
    try {
      json = JSON.readTree(reply.body());
    } catch (IOException e) {
      json = null;
    }
    if (json == null || !json.path("total_rows").canConvertToLong()) {
      throw new ViewQueryException(view + " answered 200 without total_rows: not a view reply");
    }
    long rows = json.path("total_rows").asLong();
    if (rows == 0 && !plan.setup()) {
      // CouchDB logs a map function that fails on every document and answers an empty view; so does
      // pouchdb-server for one that does not even compile.
      throw new ViewQueryException(view + " is broken or empty (200, 0 rows): its map function emits"
          + " nothing or fails on every document (see the server's log), or the database is empty;"
          + " fix it, or run with -Dsetup=true to have couchbench set it up");
    }
    return rows;
  }

  private static ObjectNode doc(String id, String task) {
    return JSON.createObjectNode().put("_id", id).put("task", task).put("status", "not done");
  }
}
