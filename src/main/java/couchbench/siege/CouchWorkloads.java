package couchbench.siege;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.DocWriteReply;
import couchbench.data.KeyFile;
import couchbench.data.KeyFileException;
import couchbench.data.RandomText;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Seed 000's couchset.php and couchget.php as Gatling chains: one document per request under a
 * random id, and reads of random ids from the key file. The text stored under an id is derived from
 * the id ({@link RandomText#forKey}), so a read can check it is intact.
 */
public final class CouchWorkloads {

  /** Request names in the report: system and operation. */
  public static final String SET = "couchdb set";

  /** Request names in the report: system and operation. */
  public static final String GET = "couchdb get";

  /** The intact-document verdict of a read. */
  static final String INTACT = "intact";

  private static final ObjectMapper JSON = new ObjectMapper();

  private CouchWorkloads() {}

  /**
   * couchset.php: {@code PUT /db/<random id>} with a document holding text, for the plan's
   * duration; every id the server acknowledged goes into the key file, and only those. A 409 (the
   * random id existed) is its own failure kind.
   *
   * @param plan users, duration, value size
   * @param target the CouchDB server
   * @param keys where acknowledged ids are recorded
   * @return the chain each user runs
   */
  public static ChainBuilder set(SiegePlan plan, CouchTarget target, KeyFile keys) {
    return during(plan.duration()).on(
        exec(session -> session.set(KeyFile.HEADER, Long.toUnsignedString(ThreadLocalRandom.current().nextLong())))
            .exec(CouchHttp.stopOnRefusal(target,
                http(SET)
                    .put("/" + plan.database() + "/#{key}")
                    .body(StringBody(session -> document(session.getString(KeyFile.HEADER), plan.valueSize())))
                    .check(
                        status().not(409).name("409 conflict: the random id existed"),
                        status().in(201, 202),
                        bodyBytes()
                            .transformWithSession((bytes, session) -> {
                              DocWriteReply reply = DocWriteReply.parse(bytes, 1);
                              if (reply.stored() == 1) {
                                keys.record(session.getString(KeyFile.HEADER));
                              }
                              return reply.verdict();
                            })
                            .is(DocWriteReply.ALL_STORED)
                            .name("document result")))));
  }

  /**
   * couchget.php: {@code GET /db/<id>} of random ids of the key file, for the plan's duration; each
   * reply must be 200 and hold the text stored under that id.
   *
   * @param plan users, duration
   * @param target the CouchDB server
   * @param keys the ids, from the key file
   * @return the chain each user runs
   */
  public static ChainBuilder get(SiegePlan plan, CouchTarget target, List<String> keys) {
    return during(plan.duration()).on(feed(KeyFile.randomFeeder(keys)).exec(CouchHttp.stopOnRefusal(target,
        http(GET)
            .get("/" + plan.database() + "/#{key}")
            .check(
                status().is(200),
                bodyBytes()
                    .transformWithSession((bytes, session) -> verdict(bytes, session.getString(KeyFile.HEADER)))
                    .is(INTACT)
                    .name("stored text")))));
  }

  /**
   * Reads and checks a CouchDB key file before any load is sent: ids go into request paths as they
   * are, so only URL-safe ones are accepted (CouchSet writes digits).
   *
   * @param plan where the key file is
   * @return its ids
   * @throws KeyFileException when the file is unusable or holds an id that is not URL-safe
   */
  public static List<String> readKeys(SiegePlan plan) {
    return KeyFile.read(plan.keyFile(), "CouchSet", id -> id.matches("[A-Za-z0-9][A-Za-z0-9._~-]*")
        ? Optional.empty()
        : Optional.of("not a plain document id (letters, digits, . _ ~ -)"));
  }

  /** The JSON document stored under an id. */
  static String document(String id, int valueSize) {
    return "{\"text\":\"" + RandomText.forKey(id, valueSize) + "\"}";
  }

  /** Whether a read document is the one written under this id: "intact", or what is wrong. */
  static String verdict(byte[] body, String id) {
    JsonNode doc;
    try {
      doc = JSON.readTree(body);
    } catch (IOException e) {
      return "reply is not JSON";
    }
    if (doc == null || !doc.path("_id").asText("").equals(id)) {
      return "another document";
    }
    String text = doc.path("text").asText(null);
    if (text == null) {
      return "no text";
    }
    return text.equals(RandomText.forKey(id, text.length())) ? INTACT : "text differs from what was stored";
  }
}
