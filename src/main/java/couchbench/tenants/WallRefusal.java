package couchbench.tenants;

import couchbench.couchdb.ReplyJson;
import java.util.Arrays;
import java.util.Optional;

/**
 * A request CouchDB 3.5 refused with a 500 because it could not open the database: every database it holds open (up
 * to {@code [couchdb] max_dbs_open}) was in use. Each is counted apart from other failures, by its reply's reason: a
 * shard refused by couch_server itself, or a request none of whose database's shards could be opened (fabric's
 * answer when each shard was refused so; seen here only with max_dbs_open lowered).
 */
enum WallRefusal {
  /** {@code {"error":"error","reason":"all_dbs_active"}}. */
  ALL_DBS_ACTIVE("all_dbs_active"),
  /** {@code {"error":"internal_server_error","reason":"No DB shards could be opened."}}. */
  NO_SHARDS_OPENED("No DB shards could be opened.");

  private final String reason;

  WallRefusal(String reason) {
    this.reason = reason;
  }

  /** @return the reply's reason, e.g. "all_dbs_active" */
  String reason() {
    return reason;
  }

  /** @return its column in seconds.csv, e.g. "refused all_dbs_active (/s)" */
  String column() {
    return "refused " + reason.replaceFirst("\\.$", "") + " (/s)";
  }

  /**
   * @param body the body of a 500 reply
   * @return the refusal it is, by its reason; empty for any other reply
   */
  static Optional<WallRefusal> of(byte[] body) {
    String reason = ReplyJson.of(body).path("reason").asText("");
    return Arrays.stream(values()).filter(refusal -> refusal.reason.equals(reason)).findFirst();
  }
}
