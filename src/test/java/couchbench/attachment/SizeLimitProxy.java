package couchbench.attachment;

import couchbench.HttpPassThrough;
import couchbench.HttpReplies;
import java.io.IOException;

/**
 * A front end with a body size limit, in front of a real CouchDB stand-in: above one size it answers 413 with
 * CouchDB's error, above a second it drops the connection without a reply; everything else is passed through.
 */
final class SizeLimitProxy {

  private SizeLimitProxy() {}

  /**
   * @param upstream the server to pass requests on to
   * @param refuseAbove bodies longer than this get a 413
   * @param dropAbove bodies longer than this get no reply: the connection is closed
   * @return the running proxy, recording every request
   */
  static HttpPassThrough start(String upstream, long refuseAbove, long dropAbove) throws IOException {
    return new HttpPassThrough(upstream, (exchange, length) -> {
      if (length > dropAbove) {
        // An exception out of the handler makes the JDK's server close the connection, unanswered.
        throw new IOException("dropping a request of " + length + " bytes");
      }
      if (length <= refuseAbove) {
        return false;
      }
      exchange.getRequestBody().readAllBytes();
      HttpReplies.json(exchange, 413, "{\"error\":\"too_large\",\"reason\":\"the request entity is too large\"}");
      return true;
    });
  }
}
