package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * A Mango JSON index, in a design document of its own so that its build is timed alone.
 *
 * @param name its name, and its design document's {@code _design/mango-<name>}
 * @param fields the fields it indexes, in order
 * @param partial its partial_filter_selector, as JSON; empty for an index of every document
 */
public record MangoIndex(String name, List<String> fields, Optional<String> partial) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * An index of every document.
   *
   * @param name its name
   * @param fields the fields it indexes, in order
   */
  public MangoIndex(String name, String... fields) {
    this(name, List.of(fields), Optional.empty());
  }

  /** @return its design document's name */
  public String ddoc() {
    return "mango-" + name;
  }

  /** @return the body of {@code POST /db/_index} */
  public String definition() {
    ObjectNode body = JSON.createObjectNode().put("ddoc", ddoc()).put("name", name).put("type", "json");
    ObjectNode index = body.putObject("index");
    fields.forEach(index.putArray("fields")::add);
    partial.ifPresent(selector -> index.set("partial_filter_selector", parse(selector)));
    return body.toString();
  }

  /** @return its use_index value, [design document, name] */
  public ArrayNode useIndex() {
    return JSON.createArrayNode().add(ddoc()).add(name);
  }

  /**
   * @param json a selector given as JSON
   * @return it parsed
   */
  public static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException("a built-in selector is not JSON: " + json, e);
    }
  }
}
