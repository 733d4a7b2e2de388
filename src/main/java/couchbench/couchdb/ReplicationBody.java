package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.targets.CouchTarget;

/**
 * The body of a replication (POST /_replicate, or a _replicator document): each endpoint with the login in a header,
 * which CouchDB does not show in _scheduler or _active_tasks and couchbench never prints.
 */
public final class ReplicationBody {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ReplicationBody() {}

  /**
   * @param source the server replicated from
   * @param sourceDatabase its database
   * @param target the server replicated to
   * @param targetDatabase its database
   * @return {"source": {"url", "headers"}, "target": {...}}
   */
  public static ObjectNode of(CouchTarget source, String sourceDatabase, CouchTarget target, String targetDatabase) {
    ObjectNode body = JSON.createObjectNode();
    body.set("source", endpoint(source, sourceDatabase));
    body.set("target", endpoint(target, targetDatabase));
    return body;
  }

  // With a login, an object carrying it in a header; without, the URL alone, which pouchdb-server also takes.
  private static JsonNode endpoint(CouchTarget server, String database) {
    String url = server.baseUrl() + "/" + database;
    if (server.credentials().isEmpty()) {
      return JSON.getNodeFactory().textNode(url);
    }
    ObjectNode endpoint = JSON.createObjectNode().put("url", url);
    endpoint.putObject("headers").put("Authorization", server.credentials().get().authorization());
    return endpoint;
  }
}
