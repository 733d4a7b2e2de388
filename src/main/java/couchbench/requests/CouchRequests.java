package couchbench.requests;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.group;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.DocWriteReply;
import couchbench.data.KeyFile;
import couchbench.data.KeyFileException;
import couchbench.data.RandomText;
import couchbench.data.ValueSizes;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The CouchDB requests of the simulations as named Gatling chains: seed 000's couchset.php and couchget.php, one
 * document per request under a new id, and reads of ids drawn from a key file; and the same for records of F fields,
 * one document each. The text stored under an id is derived from the id ({@link RandomText#forKey}), so a read can
 * check it is intact. Every request stops the run at a refused login ({@link CouchHttp#stopOnRefusal}). A chain takes
 * {@code names}, how its step names what it measures ({@link couchbench.rounds.Rounds#names} for a round, or the
 * warm-up's prefix), applied once, when it is built.
 */
public final class CouchRequests {

  /** Request names in the report: system and operation. */
  public static final String SET = "couchdb set";

  /** Request names in the report: system and operation. */
  public static final String GET = "couchdb get";

  /** The group timing a whole record's write: one PUT of a document of F fields. */
  public static final String RECORD_WRITE = "couchdb record write";

  /** The group timing a whole record's read: one GET. */
  public static final String RECORD_READ = "couchdb record read";

  /** The intact-document verdict of a read. */
  static final String INTACT = RecordFields.INTACT;

  private static final ObjectMapper JSON = new ObjectMapper();

  // Saved by a PUT's check when the document was stored, for the exec after the request to record its id: over
  // HTTP that exec costs nothing measurable (~2 us against the hundreds a request takes): the check only reads.
  private static final String STORED = "stored";

  private final CouchTarget target;
  private final String database;
  private final ValueSizes valueSizes;

  /**
   * @param target the CouchDB server
   * @param database the database written and read
   * @param valueSizes characters of text per document, or per field of a record, by key
   */
  public CouchRequests(CouchTarget target, String database, ValueSizes valueSizes) {
    this.target = target;
    this.database = database;
    this.valueSizes = valueSizes;
  }

  /**
   * couchset.php: {@code PUT /<database>/<new id>} of a document holding text; every id the server acknowledged goes
   * to {@code stored}, and only those. A 409 (the random id existed) is its own failure kind.
   *
   * @param names how the step names {@link #SET}
   * @param newId a new id for each document
   * @param stored where acknowledged ids go, e.g. a key file's {@code record}
   * @return one iteration: one PUT
   */
  public ChainBuilder set(UnaryOperator<String> names, Supplier<String> newId, Consumer<String> stored) {
    return put(names.apply(SET), newId, stored, id -> document(id, valueSizes));
  }

  /**
   * A record of F fields written as one document {@code {"f0": text, ..., "f<F-1>": text}}, each field's text
   * as long as {@code valueSizes} gives its key, timed as the group {@link #RECORD_WRITE}; acknowledged record ids go to {@code stored}.
   *
   * @param names how the step names its group and its PUT
   * @param fields F
   * @param newId a new id for each record
   * @param stored where acknowledged record ids go
   * @return one iteration: one record
   */
  public ChainBuilder recordWrite(UnaryOperator<String> names, int fields, Supplier<String> newId,
      Consumer<String> stored) {
    return group(names.apply(RECORD_WRITE)).on(put(names.apply("couchdb record put"), newId, stored,
        id -> record(id, fields, valueSizes)));
  }

  /**
   * couchget.php: {@code GET /<database>/<id>} of the id that {@code draw} puts under {@link KeyFile#HEADER}; the
   * reply must be 200 and hold the text stored under that id.
   *
   * @param names how the step names {@link #GET}
   * @param draw puts the id to read in the session, e.g. {@link KeyFile#randomKey}
   * @return one iteration: one GET
   */
  public ChainBuilder get(UnaryOperator<String> names, Function<Session, Session> draw) {
    return exec(draw).exec(read(names.apply(GET), CouchRequests::verdict));
  }

  /**
   * A record read back whole: one {@code GET} of the record id that {@code draw} puts under {@link KeyFile#HEADER},
   * timed as the group {@link #RECORD_READ}; every field must hold the text stored under it.
   *
   * @param names how the step names its group and its GET
   * @param draw puts the record id to read in the session
   * @param fields F
   * @return one iteration: one record
   */
  public ChainBuilder recordRead(UnaryOperator<String> names, Function<Session, Session> draw, int fields) {
    return exec(draw).group(names.apply(RECORD_READ)).on(read(names.apply("couchdb record get"),
        (body, id) -> recordVerdict(body, id, fields)));
  }

  /**
   * A warm-up's PUT and GET of the id under {@link KeyFile#HEADER}, each checked.
   *
   * @param names how the warm-up names its requests
   * @return the requests
   */
  public ChainBuilder putAndGet(UnaryOperator<String> names) {
    String doc = "/" + database + "/#{key}";
    return exec(
        CouchHttp.stopOnRefusal(target,
            http(names.apply("couchdb put")).put(doc).body(StringBody("{}")).check(status().in(201, 202))),
        CouchHttp.stopOnRefusal(target, http(names.apply("couchdb get")).get(doc).check(status().is(200))));
  }

  /**
   * Reads and checks a CouchDB key file before any load is sent: ids go into request paths as they
   * are, so only URL-safe ones are accepted (CouchSet writes digits).
   *
   * @param keyFile the key file
   * @return its ids, all of them or a sample (see {@link KeyFile#read})
   * @throws KeyFileException when the file is unusable or holds an id that is not URL-safe
   */
  public static KeyFile.Keys readKeys(Path keyFile) {
    return KeyFile.read(keyFile, "CouchSet", id -> id.matches("[A-Za-z0-9][A-Za-z0-9._~-]*")
        ? Optional.empty()
        : Optional.of("not a plain document id (letters, digits, . _ ~ -)"));
  }

  /** One document under a new id; its id goes to {@code stored}, in an exec after the request, when it was stored. */
  private ChainBuilder put(String name, Supplier<String> newId, Consumer<String> stored,
      Function<String, String> body) {
    return exec(session -> session.set(KeyFile.HEADER, newId.get()))
        .exec(CouchHttp.stopOnRefusal(target,
            http(name)
                .put("/" + database + "/#{key}")
                .body(StringBody(session -> body.apply(session.getString(KeyFile.HEADER))))
                .check(
                    status().not(409).name("409 conflict: the random id existed"),
                    status().in(201, 202),
                    bodyBytes()
                        .transform(bytes -> DocWriteReply.parse(bytes, 1).verdict())
                        .is(DocWriteReply.ALL_STORED)
                        .name("document result")
                        // The verdict is a few words, not the body: the report shows what was wrong.
                        .logActualValueInError(true)
                        .saveAs(STORED))))
        .exec(session -> {
          if (session.contains(STORED)) {
            stored.accept(session.getString(KeyFile.HEADER));
          }
          return session.remove(STORED);
        });
  }

  /** One GET of the id under {@link KeyFile#HEADER}, judged by a verdict on the body: "intact" or what is wrong. */
  private ChainBuilder read(String name, BiFunction<byte[], String, String> verdict) {
    return exec(CouchHttp.stopOnRefusal(target,
        http(name)
            .get("/" + database + "/#{key}")
            .check(
                status().is(200),
                bodyBytes()
                    .transformWithSession((bytes, session) -> verdict.apply(bytes, session.getString(KeyFile.HEADER)))
                    .is(INTACT)
                    .name("stored text")
                    // The verdict is a few words, not the body: the report shows what was wrong.
                    .logActualValueInError(true))));
  }

  /** The JSON document stored under an id. */
  static String document(String id, ValueSizes valueSizes) {
    return "{\"text\":\"" + valueSizes.textFor(id) + "\"}";
  }

  /** The JSON document of a record: field f<i> holds the text of the key id:i. */
  static String record(String id, int fields, ValueSizes valueSizes) {
    ObjectNode doc = JSON.createObjectNode();
    for (int i = 0; i < fields; i++) {
      doc.put("f" + i, valueSizes.textFor(RecordFields.key(id, i)));
    }
    return doc.toString();
  }

  /** Whether a read document is the one written under this id: "intact", or what is wrong. */
  static String verdict(byte[] body, String id) {
    Optional<JsonNode> doc = documentOf(body, id);
    if (doc.isEmpty()) {
      return wrongDocument(body);
    }
    return textVerdict(doc.get().path("text"), id);
  }

  /** Whether a read record is the one written under this id, all its fields intact. */
  static String recordVerdict(byte[] body, String id, int fields) {
    Optional<JsonNode> doc = documentOf(body, id);
    if (doc.isEmpty()) {
      return wrongDocument(body);
    }
    for (int i = 0; i < fields; i++) {
      String verdict = textVerdict(doc.get().path("f" + i), RecordFields.key(id, i));
      if (!verdict.equals(INTACT)) {
        return "field f" + i + ": " + verdict;
      }
    }
    return INTACT;
  }

  private static Optional<JsonNode> documentOf(byte[] body, String id) {
    return json(body).filter(doc -> doc.path("_id").asText("").equals(id));
  }

  private static String wrongDocument(byte[] body) {
    return json(body).isPresent() ? "another document" : "reply is not JSON";
  }

  private static Optional<JsonNode> json(byte[] body) {
    try {
      return Optional.ofNullable(JSON.readTree(body));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static String textVerdict(JsonNode field, String key) {
    String text = field.asText(null);
    if (text == null || !field.isTextual()) {
      return "no text";
    }
    return text.equals(RandomText.forKey(key, text.length())) ? INTACT : "text differs from what was stored";
  }
}
