package couchbench.resources;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a few counters' values from a CouchDB node's {@code _node/_local/_stats/couchdb} reply, skipping the rest.
 *
 * <p>The sampler reads that reply every second, in the load generator, for three of its hundred-odd figures (12 KB,
 * mostly histograms): a streaming parse that keeps three numbers, without building the reply's tree (its nodes and
 * strings), in a JVM that BulkInsert runs C1-compiled only.
 */
final class StatsCounters {

  private static final JsonFactory JSON = new JsonFactory();

  private StatsCounters() {}

  /**
   * @param counters the counters' paths in the reply, e.g. {@code httpd/requests}; each is an object whose
   *     {@code value} is read
   * @return each counter found, by its path, with its value; a counter the reply lacks is not there
   * @throws IOException when the reply is not a JSON object
   */
  static Map<String, Double> read(byte[] stats, List<String> counters) throws IOException {
    List<String> values = counters.stream().map(counter -> counter + "/value").toList();
    Map<String, Double> found = new HashMap<>();
    try (JsonParser parser = JSON.createParser(stats)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("what is not a JSON object");
      }
      readObject(parser, "", values, found);
    } catch (JsonProcessingException e) {
      throw new IOException("what is not JSON (" + e.getOriginalMessage() + ")");
    }
    Map<String, Double> byCounter = new HashMap<>();
    found.forEach((value, number) -> byCounter.put(value.substring(0, value.length() - "/value".length()), number));
    return byCounter;
  }

  // The fields of the object the parser is in, whose path so far is prefix: a wanted number is kept, an object on the
  // way to one is read, anything else is skipped whole.
  private static void readObject(JsonParser parser, String prefix, List<String> values, Map<String, Double> found)
      throws IOException {
    JsonToken token;
    while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
      String path = prefix + parser.currentName();
      JsonToken value = parser.nextToken();
      if (value != null && value.isNumeric() && values.contains(path)) {
        found.put(path, parser.getDoubleValue());
      } else if (value == JsonToken.START_OBJECT && values.stream().anyMatch(wanted -> wanted.startsWith(path + "/"))) {
        readObject(parser, path + "/", values, found);
      } else {
        parser.skipChildren();
      }
    }
    if (token != JsonToken.END_OBJECT) {
      throw new IOException("what is not a whole JSON object");
    }
  }
}
