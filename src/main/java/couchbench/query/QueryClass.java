package couchbench.query;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What is asked, each a request name of its own, and the ways CouchDB offers to ask it. Every class but scan asks of
 * one customer's orders; a Mango sort needs an index (CouchDB refuses one without), and an $or cannot be one view
 * query.
 */
public enum QueryClass {
  /** {"status": s}: equality on an indexed field. */
  EQUALITY("status = s", Way.MANGO, Way.INDEX, Way.PARTIAL, Way.COVERING, Way.VIEW),
  /** {"ts": {"$gte": a, "$lt": b}}: a fifth of the customer's orders. */
  RANGE("ts in [a, b)", Way.MANGO, Way.INDEX, Way.VIEW),
  /** The customer's ten latest orders: sort by ts, descending, limit 10, in order. */
  SORT("latest 10 by ts", Way.INDEX, Way.VIEW),
  /** {"status": {"$in": [s1, s2]}}. */
  IN("status $in [s1, s2]", Way.MANGO, Way.INDEX, Way.VIEW),
  /** {"$or": [{"status": s}, {"amount": {"$gte": x}}]}. */
  OR("$or: status = s, amount >= x", Way.MANGO, Way.INDEX),
  /** {"address.city": {"$regex": "^Sa"}}: a prefix of a nested field. */
  REGEX("address.city $regex ^prefix", Way.MANGO, Way.INDEX, Way.VIEW),
  /** {"tags": {"$elemMatch": {"$eq": t}}}: an array holding a value. */
  ELEMMATCH("tags $elemMatch t", Way.MANGO, Way.INDEX, Way.VIEW),
  /** {"amount": {"$gte": x, "$lt": y}} over every customer (global) or one partition: no index serves it. */
  SCAN("amount in [x, y), no customer", Way.MANGO),
  /** All of a customer's orders, 25 a page: bookmarks (Mango), startkey and startkey_docid (view), startkey (ids). */
  PAGE("all, 25 a page", Way.MANGO, Way.INDEX, Way.VIEW, Way.ALL_DOCS),
  /** The total amount of the customer's orders of a status: Mango returns the amounts to add, the view sums. */
  SUM("sum(amount) where status = s", Way.MANGO, Way.INDEX, Way.VIEW);

  private final String description;
  private final List<Way> ways;

  QueryClass(String description, Way... ways) {
    this.description = description;
    this.ways = List.of(ways);
  }

  /** @return its name in -Dqueries and request names, e.g. "elemmatch" */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return what it asks, e.g. "status = s" */
  public String description() {
    return description;
  }

  /** @return the ways it is asked */
  public List<Way> ways() {
    return ways;
  }

  /**
   * @param value a name, e.g. "range"
   * @return its class
   * @throws IllegalArgumentException naming the classes there are
   */
  public static QueryClass of(String value) {
    for (QueryClass queryClass : values()) {
      if (queryClass.value().equals(value.trim().toLowerCase(Locale.ROOT))) {
        return queryClass;
      }
    }
    throw new IllegalArgumentException("no query class " + value.trim() + "; there are "
        + Arrays.stream(values()).map(QueryClass::value).collect(Collectors.joining(", ")));
  }
}
