package couchbench.siege;

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
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Seed 000's couchset.php and couchget.php as Gatling chains: one document per request under a
 * random id, and reads of random ids from the key file; and the same for records of F fields, one
 * document each. The text stored under an id is derived from the id ({@link RandomText#forKey}),
 * so a read can check it is intact. A chain of one round of -Drounds names its requests and groups for that round
 * ({@link couchbench.rounds.Rounds#name}), once, when it is built.
 */
public final class CouchWorkloads {

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

  private CouchWorkloads() {}

  /**
   * couchset.php: {@code PUT /db/<random id>} with a document holding text; every id the server acknowledged goes
   * into the key file, and only those. A 409 (the random id existed) is its own failure kind.
   *
   * @param plan value size, database, this injector's id space, and the rounds
   * @param target the CouchDB server
   * @param keys where acknowledged ids are recorded
   * @param round the round the chain runs in, 1 to R
   * @return one iteration: one PUT
   */
  public static ChainBuilder set(SiegePlan plan, CouchTarget target, KeyFile keys, int round) {
    return put(plan.rounds().name(SET, round), plan, target, keys, id -> document(id, plan.valueSize()));
  }

  /**
   * A record of F fields written as one document {@code {"f0": text, ..., "f<F-1>": text}}, each
   * field's text {@code valueSize} long, timed as the group {@link #RECORD_WRITE}; acknowledged
   * record ids go into the key file.
   *
   * @param plan value size (per field), database, this injector's id space, and the rounds
   * @param fields F
   * @param target the CouchDB server
   * @param keys where acknowledged record ids are recorded
   * @param round the round the chain runs in, 1 to R
   * @return one iteration: one record
   */
  public static ChainBuilder recordWrite(SiegePlan plan, int fields, CouchTarget target, KeyFile keys, int round) {
    return group(plan.rounds().name(RECORD_WRITE, round)).on(put(plan.rounds().name("couchdb record put", round), plan,
        target, keys, id -> record(id, fields, plan.valueSize())));
  }

  /**
   * couchget.php: {@code GET /db/<id>} of the id under {@link KeyFile#HEADER} in the session (drawn by
   * {@link KeyFile#randomKey}); the reply must be 200 and hold the text stored under that id.
   *
   * @param plan database, and the rounds
   * @param target the CouchDB server
   * @param round the round the chain runs in, 1 to R
   * @return one iteration's request
   */
  public static ChainBuilder get(SiegePlan plan, CouchTarget target, int round) {
    return read(plan.rounds().name(GET, round), plan, target, CouchWorkloads::verdict);
  }

  /**
   * A record read back whole: one {@code GET} of the record id under {@link KeyFile#HEADER}, timed as the group
   * {@link #RECORD_READ}; every field must hold the text stored under it.
   *
   * @param plan database, and the rounds
   * @param fields F
   * @param target the CouchDB server
   * @param round the round the chain runs in, 1 to R
   * @return one iteration: one record
   */
  public static ChainBuilder recordRead(SiegePlan plan, int fields, CouchTarget target, int round) {
    return group(plan.rounds().name(RECORD_READ, round)).on(read(plan.rounds().name("couchdb record get", round), plan,
        target, (body, id) -> recordVerdict(body, id, fields)));
  }

  /**
   * The CouchDB half of CouchVsMemcache's warm-up: a PUT and a GET of the id under {@link KeyFile#HEADER}, under
   * names of their own.
   *
   * @param plan database
   * @param target the CouchDB server
   * @return the requests
   */
  public static ChainBuilder warmUpPutAndGet(SiegePlan plan, CouchTarget target) {
    String doc = "/" + plan.database() + "/#{key}";
    return exec(
        CouchHttp.stopOnRefusal(target,
            http(SiegePlan.WARMUP + "couchdb put").put(doc).body(StringBody("{}")).check(status().in(201, 202))),
        CouchHttp.stopOnRefusal(target, http(SiegePlan.WARMUP + "couchdb get").get(doc).check(status().is(200))));
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

  /**
   * One document under a random id; its id goes into the key file, in an exec after the request, when the reply
   * said it was stored.
   */
  private static ChainBuilder put(String name, SiegePlan plan, CouchTarget target, KeyFile keys,
      Function<String, String> body) {
    return exec(session -> session.set(KeyFile.HEADER,
            plan.newKey(Long.toUnsignedString(ThreadLocalRandom.current().nextLong()))))
        .exec(CouchHttp.stopOnRefusal(target,
            http(name)
                .put("/" + plan.database() + "/#{key}")
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
            keys.record(session.getString(KeyFile.HEADER));
          }
          return session.remove(STORED);
        });
  }

  /** One GET of the id under {@link KeyFile#HEADER}, judged by a verdict on the body: "intact" or what is wrong. */
  private static ChainBuilder read(String name, SiegePlan plan, CouchTarget target,
      BiFunction<byte[], String, String> verdict) {
    return exec(CouchHttp.stopOnRefusal(target,
        http(name)
            .get("/" + plan.database() + "/#{key}")
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
  static String document(String id, int valueSize) {
    return "{\"text\":\"" + RandomText.forKey(id, valueSize) + "\"}";
  }

  /** The JSON document of a record: field f<i> holds the text of the key id:i. */
  static String record(String id, int fields, int valueSize) {
    ObjectNode doc = JSON.createObjectNode();
    for (int i = 0; i < fields; i++) {
      doc.put("f" + i, RandomText.forKey(RecordFields.key(id, i), valueSize));
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
