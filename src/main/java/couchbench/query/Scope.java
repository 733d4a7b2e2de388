package couchbench.query;

import java.util.Locale;

/** Where a query runs: a global database, or one customer's partition of a partitioned one holding the same data. */
public enum Scope {
  /** A database created without partitions: a customer's query names the customer in its selector or key. */
  GLOBAL,
  /** {@code PUT /db?partitioned=true}: the same query, asked under {@code /db/_partition/<customer>/}. */
  PARTITIONED;

  /** @return its name in request names, "global" or "partitioned" */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }
}
