package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * A design document holding one JavaScript map view, e.g. {@code _design/todo} with view
 * {@code list}, and what it takes to put it in place when an older version may be there.
 *
 * @param name the design document's name, without {@code _design/}
 * @param view the view's name
 * @param map the view's map function, as JavaScript source
 * @param reduce the view's reduce, e.g. the built-in {@code _sum}; empty for none
 */
public record DesignDocument(String name, String view, String map, Optional<String> reduce) {

  /**
   * A view without a reduce.
   *
   * @param name the design document's name, without {@code _design/}
   * @param view the view's name
   * @param map the view's map function, as JavaScript source
   */
  public DesignDocument(String name, String view, String map) {
    this(name, view, map, Optional.empty());
  }

  /** What {@link #putInPlace} did. */
  public enum Outcome {
    /** There was no such design document. */
    CREATED,
    /** It was there with the same map function and was left alone. */
    UNCHANGED,
    /** It was there with another map function, or without the view, and was replaced. */
    REPLACED
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** @return the document id, {@code _design/<name>} */
  public String id() {
    return "_design/" + name;
  }

  /**
   * The path of a query of the view, relative to the server.
   *
   * @param database the database name
   * @return {@code /db/_design/<name>/_view/<view>}
   */
  public String queryPath(String database) {
    return queryPath(database, Optional.empty());
  }

  /**
   * The path of a query of the view, in one partition of a partitioned database.
   *
   * @param database the database name
   * @param partition the partition; empty for the whole database
   * @return {@code /db[/_partition/<p>]/_design/<name>/_view/<view>}
   */
  public String queryPath(String database, Optional<String> partition) {
    return "/" + database + partition.map(p -> "/_partition/" + p).orElse("") + "/" + id() + "/_view/" + view;
  }

  /**
   * Creates the design document, or replaces one whose map function differs; one that matches is
   * left as it is, so that its built index is kept.
   *
   * @param client the setup client
   * @param database the database name
   * @return what was done
   */
  public Outcome putInPlace(CouchDbClient client, String database) {
    Optional<JsonNode> existing = client.document(database, id());
    JsonNode existingView = existing.map(doc -> doc.path("views").path(view)).orElse(null);
    if (existingView != null && map.equals(existingView.path("map").asText(null))
        && reduce.equals(Optional.ofNullable(existingView.path("reduce").asText(null)))) {
      return Outcome.UNCHANGED;
    }
    client.putDocument(database, id(), json(existing.map(doc -> doc.path("_rev").asText())));
    return existing.isPresent() ? Outcome.REPLACED : Outcome.CREATED;
  }

  /**
   * The document as JSON.
   *
   * @param rev the revision it replaces, if any
   * @return {@code {"_id":..,["_rev":..,]"language":"javascript","views":{view:{"map":..}}}}
   */
  public String json(Optional<String> rev) {
    ObjectNode doc = JSON.createObjectNode().put("_id", id());
    rev.ifPresent(r -> doc.put("_rev", r));
    doc.put("language", "javascript");
    ObjectNode definition = doc.putObject("views").putObject(view).put("map", map);
    reduce.ifPresent(function -> definition.put("reduce", function));
    return doc.toString();
  }
}
