package couchbench.couchdb;

import java.nio.charset.StandardCharsets;

/**
 * A CouchDB reply whose status the caller judges itself, e.g. a view query that may say the view is
 * missing (404) or broken (500).
 *
 * @param status the HTTP status
 * @param contentType its Content-Type, "" without one
 * @param body the reply body
 */
public record CouchReply(int status, String contentType, byte[] body) {

  /**
   * CouchDB's own words for a failed reply.
   *
   * @return "kind: reason" from its JSON error, or the start of the body
   */
  public String reason() {
    return CouchDbClient.reason(body);
  }

  @Override
  public String toString() {
    return status + " " + new String(body, StandardCharsets.UTF_8);
  }
}
