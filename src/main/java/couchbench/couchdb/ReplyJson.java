package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** A CouchDB reply's body read as JSON, for code that then reads its fields with path(): never null. */
public final class ReplyJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ReplyJson() {}

  /**
   * @param body a reply's body
   * @return its JSON; an empty object when it is empty or not JSON, whose fields then read as missing
   */
  public static JsonNode of(byte[] body) {
    try {
      JsonNode reply = JSON.readTree(body);
      return reply == null ? JSON.createObjectNode() : reply;
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }
}
