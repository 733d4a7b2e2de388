package couchbench.query;

import couchbench.couchdb.DesignDocument;
import couchbench.couchdb.MangoIndex;
import java.util.List;
import java.util.Optional;

/**
 * The indexes a Query run builds after loading the orders: Mango's JSON indexes in one database, the equivalent map
 * views in the other (where Mango therefore has no index), and which one each query class and way uses.
 */
final class QueryIndexes {

  static final MangoIndex OWNER_STATUS = new MangoIndex("owner-status", "owner", "status");
  static final MangoIndex OWNER_TS = new MangoIndex("owner-ts", "owner", "ts");
  static final MangoIndex OWNER = new MangoIndex("owner", "owner");
  static final MangoIndex CANCELLED = new MangoIndex("cancelled", List.of("owner"),
      Optional.of("{\"status\":\"cancelled\"}"));
  static final List<MangoIndex> MANGO = List.of(OWNER_STATUS, OWNER_TS, OWNER, CANCELLED);

  // The views, each in a design document of its own (_design/view-<name>, view "by") so that its build is timed alone.
  static final DesignDocument BY_OWNER_STATUS = new DesignDocument("view-owner-status", "by",
      "function (doc) { if (doc.type === 'order') { emit([doc.owner, doc.status], doc.amount); } }",
      Optional.of(SumReduce.BUILTIN.function()));
  static final DesignDocument BY_OWNER_TS = new DesignDocument("view-owner-ts", "by",
      "function (doc) { if (doc.type === 'order') { emit([doc.owner, doc.ts], null); } }");
  static final DesignDocument BY_OWNER_CITY = new DesignDocument("view-owner-city", "by",
      "function (doc) { if (doc.type === 'order') { emit([doc.owner, doc.address.city], null); } }");
  static final DesignDocument BY_OWNER_TAG = new DesignDocument("view-owner-tag", "by",
      "function (doc) { if (doc.type === 'order') { doc.tags.forEach(function (tag) { emit([doc.owner, tag], null);"
      + " }); } }");

  /**
   * @param sumReduce how the sum view adds up amounts
   * @return the views, each in a design document of its own, the sum view reducing as given
   */
  static List<DesignDocument> views(SumReduce sumReduce) {
    DesignDocument sums = new DesignDocument(BY_OWNER_STATUS.name(), BY_OWNER_STATUS.view(), BY_OWNER_STATUS.map(),
        Optional.of(sumReduce.function()));
    return List.of(sums, BY_OWNER_TS, BY_OWNER_CITY, BY_OWNER_TAG);
  }

  private QueryIndexes() {}

  /**
   * @param queryClass a query class
   * @param way a Mango way with an index
   * @return the index it names in use_index
   */
  static MangoIndex mango(QueryClass queryClass, Way way) {
    if (way == Way.PARTIAL) {
      return CANCELLED;
    }
    return switch (queryClass) {
      case EQUALITY, IN, SUM -> OWNER_STATUS;
      case RANGE, SORT -> OWNER_TS;
      case OR, REGEX, ELEMMATCH, PAGE, SCAN -> OWNER;
    };
  }

  /**
   * @param queryClass a query class asked of a view
   * @return its view
   */
  static DesignDocument view(QueryClass queryClass) {
    return switch (queryClass) {
      case EQUALITY, IN, SUM -> BY_OWNER_STATUS;
      case REGEX -> BY_OWNER_CITY;
      case ELEMMATCH -> BY_OWNER_TAG;
      default -> BY_OWNER_TS;
    };
  }
}
