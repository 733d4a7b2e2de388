package couchbench.workloads;

import java.util.Arrays;

/** YCSB's operations, by the property that sets each one's proportion and the word a request name uses. */
public enum Operation {
  READ("read", "read"),
  UPDATE("update", "update"),
  INSERT("insert", "insert"),
  SCAN("scan", "scan"),
  READ_MODIFY_WRITE("rmw", "read-modify-write");

  private final String property;
  private final String word;

  Operation(String property, String word) {
    this.property = property;
    this.word = word;
  }

  /** @return the property of its proportion, e.g. {@code rmw} for -Drmw=0.5 */
  public String property() {
    return property;
  }

  /** @return its word in request names and on the page, e.g. "read-modify-write" */
  public String word() {
    return word;
  }

  /**
   * @param system "couchdb" or "memcache"
   * @return the request (or group) name of this operation on that system, e.g. "couchdb read"
   */
  public String requestName(String system) {
    return system + " " + word;
  }

  /** @return the proportion properties, for messages: "-Dread, -Dupdate, ..." */
  static String properties() {
    return String.join(", ", Arrays.stream(values()).map(operation -> "-D" + operation.property).toList());
  }
}
