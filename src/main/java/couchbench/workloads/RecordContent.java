package couchbench.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.data.RandomText;
import couchbench.distributions.Fnv;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * What a record holds at each version, derived from its key and version alone, so that every read can be checked
 * against what was written without keeping a copy: field i of version v is {@link RandomText#forKey} of
 * {@code <key>:<i>:<v>}. A CouchDB record is one document whose version is its {@code _rev}'s generation (1 when
 * inserted, one more at each update); a memcache record is one value, {@code <v>;<field 0>;...;<field F-1>} (the text
 * holds no ';'). A read is stale when its version is below the one the run knew acknowledged when the read began.
 *
 * @param fields fields per record
 * @param fieldLength characters per field
 */
record RecordContent(int fields, int fieldLength) {

  /** The verdict of a read that found the record as written, at a version not older than acknowledged. */
  static final String INTACT = "intact";

  /** How the verdict of a read that found a record's fields at two versions starts. */
  static final String TORN = "torn";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * YCSB's key of a record number with its default hashed insert order: "user" and the number's FNV-1a 64 hash.
   *
   * @param keyNumber the record's number, 0 for the first loaded
   * @return its key, a memcache key and a CouchDB id alike
   */
  static String key(long keyNumber) {
    return "user" + Fnv.hash64(keyNumber);
  }

  /** @return the text of field {@code field} of the record under {@code key} at {@code version} */
  String field(String key, int field, long version) {
    return RandomText.forKey(key + ":" + field + ":" + version, fieldLength);
  }

  /** @return the CouchDB document of the record at {@code version}, with {@code _rev} when it updates one */
  String document(String key, long version, String rev) {
    ObjectNode doc = JSON.createObjectNode();
    if (rev != null) {
      doc.put("_rev", rev);
    }
    for (int i = 0; i < fields; i++) {
      doc.put("f" + i, field(key, i, version));
    }
    return doc.toString();
  }

  /** @return the memcache value of the record at {@code version} */
  String value(String key, long version) {
    StringBuilder value = new StringBuilder(fields * (fieldLength + 1) + 8).append(version);
    for (int i = 0; i < fields; i++) {
      value.append(';').append(field(key, i, version));
    }
    return value.toString();
  }

  /** @return the memcache value of field {@code field} of the record at {@code version}, in one key per field */
  String fieldValue(String key, int field, long version) {
    return version + ";" + field(key, field, version);
  }

  /**
   * @param values a get of the record's F field keys, {@code <key>:<i>}, key to value
   * @param key the record's key
   * @param atLeast the version acknowledged when the read began
   * @return {@link #INTACT}, or what is wrong, in a few words: a field missing, torn (fields of two versions), stale
   */
  String fieldsVerdict(Map<String, String> values, String key, long atLeast) {
    long version = -1;
    for (int i = 0; i < fields; i++) {
      String value = values.get(key + ":" + i);
      if (value == null) {
        return "field " + i + " not found";
      }
      long fieldVersion = versionOf(value);
      if (version >= 0 && fieldVersion != version) {
        return TORN + ": fields of versions " + version + " and " + fieldVersion;
      }
      version = fieldVersion;
      if (!value.equals(fieldValue(key, i, version))) {
        return "field " + i + " differs from what version " + version + " holds";
      }
    }
    return stale(version, atLeast).orElse(INTACT);
  }

  /**
   * @param doc a document read, e.g. a row of a scan
   * @param key the key it should have
   * @param atLeast the version acknowledged when the read began
   * @return {@link #INTACT}, or what is wrong, in a few words
   */
  String documentVerdict(JsonNode doc, String key, long atLeast) {
    if (!doc.path("_id").asText("").equals(key)) {
      return "another document";
    }
    long version = revGeneration(doc.path("_rev").asText(""));
    if (version < 1) {
      return "no _rev";
    }
    for (int i = 0; i < fields; i++) {
      if (!doc.path("f" + i).asText("").equals(field(key, i, version))) {
        return "field f" + i + " differs from what version " + version + " holds";
      }
    }
    return stale(version, atLeast).orElse(INTACT);
  }

  /**
   * @param value a memcache get of the record under {@code key}
   * @param key the record's key
   * @param atLeast the version acknowledged when the read began
   * @return {@link #INTACT}, or what is wrong, in a few words
   */
  String valueVerdict(String value, String key, long atLeast) {
    int end = value.indexOf(';');
    long version = end < 1 ? -1 : versionOf(value.substring(0, end));
    if (version < 1) {
      return "no version";
    }
    if (!value.equals(value(key, version))) {
      return "fields differ from what version " + version + " holds";
    }
    return stale(version, atLeast).orElse(INTACT);
  }

  /** @return the version a value says it is, or -1 when it says none; the version a cas writes after it */
  static long versionOf(String value) {
    int end = value.indexOf(';');
    String number = end < 0 ? value : value.substring(0, end);
    try {
      return Long.parseLong(number);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * @param rev a CouchDB revision, e.g. {@code 3-917fa23...}, or an ETag holding one in quotes
   * @return its generation, 3; -1 when it is not a revision
   */
  static long revGeneration(String rev) {
    String bare = rev.replace("\"", "");
    int dash = bare.indexOf('-');
    if (dash < 1) {
      return -1;
    }
    try {
      return Long.parseLong(bare.substring(0, dash));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static Optional<String> stale(long version, long atLeast) {
    return version < atLeast
        ? Optional.of("stale: version " + version + " read after version " + atLeast + " was acknowledged")
        : Optional.empty();
  }

  /** @return the JSON of a reply's body; empty when it is not JSON */
  static Optional<JsonNode> json(byte[] body) {
    try {
      return Optional.ofNullable(JSON.readTree(body));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
