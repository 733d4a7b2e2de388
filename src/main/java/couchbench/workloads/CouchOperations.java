package couchbench.workloads;

import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.group;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * YCSB's operations on CouchDB: a record is one document under its key. A read is one GET; an insert one PUT; an
 * update learns the document's {@code _rev} (HEAD) and PUTs the new version with it; a read-modify-write GETs the
 * document, checks it, and PUTs the new version with the {@code _rev} it read; a scan reads {@code _all_docs} from the
 * drawn key, {@code limit} records with their documents. A write that CouchDB refuses with 409 (the document changed
 * since its {@code _rev} was read) is a conflict, counted apart. Every read is checked ({@link RecordContent}).
 */
public final class CouchOperations extends SystemOperations {

  /** The failure message of a 409, as Gatling's report and the page count it. */
  public static final String CONFLICT = "conflict: 409, the document changed since its _rev was read";

  private final CouchTarget target;
  private final String path;
  private final boolean revFromEtag;

  /**
   * @param plan the run's plan
   * @param times where the operations' latencies go
   * @param target the CouchDB server
   * @throws couchbench.couchdb.CouchDbException when the server does not answer as CouchDB
   */
  public CouchOperations(WorkloadPlan plan, OperationTimes times, CouchTarget target) {
    super(WorkloadPlan.COUCHDB, plan, times);
    this.target = target;
    this.path = "/" + plan.database() + "/";
    this.revFromEtag = plan.proportions().get(Operation.UPDATE) > 0 && etagIsRev();
  }

  // Whether HEAD gives a document's _rev as its ETag, as CouchDB's API says: in a database of its own, dropped after,
  // so that the run's doc_count holds only records.
  private boolean etagIsRev() {
    CouchDbClient client = new CouchDbClient(target);
    String probe = plan.database() + "_etag_probe";
    client.createDatabase(probe);
    try {
      client.putDocument(probe, "probe", "{}");
      String rev = client.document(probe, "probe").map(doc -> doc.path("_rev").asText("")).orElse("");
      if (client.etag(probe, "probe").filter(etag -> etag.equals("\"" + rev + "\"")).isPresent()) {
        return true;
      }
    } finally {
      client.deleteDatabase(probe);
    }
    Console.say("couchdb update: the server's ETag is not the document's _rev (CouchDB's is; pouchdb-server's is"
        + " not): update reads the _rev with a GET instead of a HEAD");
    return false;
  }

  @Override
  protected List<List<String>> mustNotFail(Operation operation) {
    String name = operation.requestName(name());
    return switch (operation) {
      case READ, INSERT, SCAN -> List.of(List.of(name));
      case UPDATE -> List.of(List.of(name, name + " rev"));
      case READ_MODIFY_WRITE -> List.of(List.of(name, name + " read"));
    };
  }

  @Override
  public String describeTarget() {
    return target.describe() + ", database " + plan.database();
  }

  @Override
  public ProtocolBuilder protocol() {
    return CouchHttp.protocol(target);
  }

  /** Creates the run's database, empty, replacing one an earlier run left; it stays after the run, to look at. */
  @Override
  public void prepare() {
    new CouchDbClient(target).createDatabase(plan.database());
  }

  @Override
  public ChainBuilder loadInsert() {
    return request(http(name() + " load")
        .put(session -> path + loadClaim(session).key())
        .body(StringBody(session -> records.content().document(loadClaim(session).key(), 1, null)))
        .check(status().in(201, 202)));
  }

  @Override
  protected ChainBuilder chain(Operation operation) {
    String name = operation.requestName(name());
    return switch (operation) {
      case READ -> request(http(name).get(session -> path + user(session).key).check(status().is(200),
          readVerdict()));
      case INSERT -> request(http(name).put(session -> path + user(session).key)
          .body(StringBody(session -> records.content().document(user(session).key, 1, null)))
          .check(status().in(201, 202)));
      case UPDATE -> group(name).on(revRead(name + " rev"), write(name + " write"));
      case READ_MODIFY_WRITE -> group(name).on(
          request(http(name + " read").get(session -> path + user(session).key)
              .check(status().is(200), readVerdict())),
          write(name + " write"));
      case SCAN -> request(http(name).get(session -> path + "_all_docs?include_docs=true&limit="
              + user(session).scanLength + "&startkey=" + quotedKey(user(session).key))
          .check(status().is(200), bodyBytes().transformWithSession(this::scanVerdict)
              .is(RecordContent.INTACT).name("documents scanned").logActualValueInError(true)));
    };
  }

  @Override
  protected List<String> notes() {
    List<String> notes = new ArrayList<>();
    if (plan.proportions().get(Operation.UPDATE) > 0) {
      notes.add("update: a HEAD for the document's _rev, then a PUT of the whole record at its next version"
          + " (CouchDB replaces a document whole; YCSB's update writes one field)");
    }
    return notes;
  }

  @Override
  protected List<String> serverCounts() {
    long expected = records.loaded() + records.insertsTried();
    try {
      long docCount = new CouchDbClient(target).docCount(plan.database());
      return List.of("doc_count " + String.format("%,d", docCount) + " against " + String.format("%,d", expected)
          + " records loaded and inserted" + (docCount == expected ? ": equal" : ": they differ"));
    } catch (RuntimeException e) {
      return List.of("doc_count could not be read: " + e.getMessage());
    }
  }

  // The new version PUT with the _rev read before it; a 409 is a conflict: the user's state says so.
  private ChainBuilder write(String name) {
    return request(http(name).put(session -> path + user(session).key)
        .body(StringBody(session -> {
          User user = user(session);
          user.written = RecordContent.revGeneration(user.rev) + 1;
          return records.content().document(user.key, user.written, user.rev);
        }))
        .check(status().transformWithSession((status, session) -> {
          if (status == 409) {
            user(session).conflict = true;
          }
          return status;
        }).not(409).name(CONFLICT), status().in(201, 202)));
  }

  // The document's _rev: by HEAD, its ETag, where the server follows CouchDB's API; else by GET, from the body.
  private ChainBuilder revRead(String name) {
    return request(revFromEtag
        ? http(name).head(session -> path + user(session).key).check(status().is(200),
            header("ETag").transformWithSession((etag, session) -> {
              user(session).rev = etag.replace("\"", "");
              return etag;
            }).exists())
        : http(name).get(session -> path + user(session).key).check(status().is(200),
            bodyBytes().transformWithSession((bytes, session) -> {
              user(session).rev = RecordContent.json(bytes).map(doc -> doc.path("_rev").asText(null)).orElse(null);
              return user(session).rev;
            }).exists()));
  }

  private ChainBuilder request(HttpRequestActionBuilder request) {
    return CouchHttp.stopOnRefusal(target, request);
  }

  // The record read checked whole, its version at least the one acknowledged when the read began; its _rev kept for a
  // read-modify-write's PUT.
  private CheckBuilder readVerdict() {
    return bodyBytes().transformWithSession((bytes, session) -> {
      User user = user(session);
      Optional<JsonNode> doc = RecordContent.json(bytes);
      user.rev = doc.map(read -> read.path("_rev").asText(null)).orElse(null);
      return doc.map(read -> records.content().documentVerdict(read, user.key, user.atLeast))
          .orElse("reply is not JSON");
    }).is(RecordContent.INTACT).name("record read").logActualValueInError(true);
  }

  private String scanVerdict(byte[] body, Session session) {
    Optional<JsonNode> reply = RecordContent.json(body);
    if (reply.isEmpty()) {
      return "reply is not JSON";
    }
    JsonNode rows = reply.get().path("rows");
    if (!rows.isArray() || rows.size() > user(session).scanLength) {
      return "not a list of at most " + user(session).scanLength + " rows";
    }
    for (JsonNode row : rows) {
      String verdict = records.content().documentVerdict(row.path("doc"), row.path("id").asText(""), 1);
      if (!verdict.equals(RecordContent.INTACT)) {
        return "row " + row.path("id").asText("?") + ": " + verdict;
      }
    }
    return RecordContent.INTACT;
  }

  private static String quotedKey(String key) {
    return URLEncoder.encode("\"" + key + "\"", StandardCharsets.UTF_8);
  }
}
