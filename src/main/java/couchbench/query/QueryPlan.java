package couchbench.query;

import couchbench.couchdb.DatabaseNames;
import couchbench.distributions.RequestMix;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Query run's parameters: the orders loaded, the query classes asked and their shares of the requests, with the
 * writes' share, in which kinds of database, by how many users.
 *
 * @param docs the orders loaded into each database
 * @param owners the customers owning them (the partitions)
 * @param seed the data's seed
 * @param shares each query class's share of the requests, in the order given
 * @param writeShare the writes' share (new orders, which no query asks for, so that every answer stays known)
 * @param scopes the kinds of database, each holding the same orders
 * @param users virtual users, each asking one request after the other
 * @param requests requests per user (a page of a paged query is one)
 * @param prefix the databases' names: prefix_global, prefix_global_mango, prefix_partitioned, ...
 * @param byDefault whether the classes are every one, by default (neither -Dqueries nor -Dmix): a class the server
 *     cannot answer is then left out with a line, where one named stops the run
 * @param sumReduce how the sum view adds up amounts
 */
public record QueryPlan(int docs, int owners, long seed, Map<QueryClass, Integer> shares, int writeShare,
    List<Scope> scopes, int users, int requests, String prefix, boolean byDefault, SumReduce sumReduce) {

  /** Documents a page of the page class, and the limit of the sort class. */
  public static final int PAGE_SIZE = 25;

  /**
   * Reads the plan.
   *
   * @param settings docs, owners, seed, queries, mix, partitioned, users, requests, database, reduce
   * @return the plan
   * @throws QueryException naming the setting and what to give, before any load
   */
  public static QueryPlan from(Settings settings) {
    if (!InjectorShare.from(settings).alone()) {
      throw new QueryException("-Dinjector: Query runs on one injector (each reply is checked against the data it"
          + " loaded); leave -Dinjector out");
    }
    int docs = settings.intValue("docs", 10_000, 1);
    RequestMix mix;
    try {
      mix = RequestMix.from("queries", settings.value("queries"), settings.value("mix"), "query",
          Arrays.stream(QueryClass.values()).map(QueryClass::value).toList());
    } catch (IllegalArgumentException e) {
      throw new QueryException(e.getMessage());
    }
    Map<QueryClass, Integer> shares = new LinkedHashMap<>();
    mix.shares().forEach((name, weight) -> shares.put(QueryClass.of(name), weight));
    return new QueryPlan(docs, settings.intValue("owners", Math.max(1, docs / 200), 1),
        settings.intValue("seed", 42, 0), shares, mix.writeShare(), scopes(settings),
        settings.intValue("users", 4, 1), settings.intValue("requests", 200, 1),
        DatabaseNames.fromSettings(settings, "couchbench_query"),
        mix.byDefault(),
        SumReduce.of(settings.get("reduce", SumReduce.BUILTIN.value())));
  }

  /**
   * @param leftOut a class the server cannot answer
   * @return this plan without it
   */
  public QueryPlan without(QueryClass leftOut) {
    Map<QueryClass, Integer> fewer = new LinkedHashMap<>(shares);
    fewer.remove(leftOut);
    return new QueryPlan(docs, owners, seed, fewer, writeShare, scopes, users, requests, prefix, byDefault,
        sumReduce);
  }

  private static List<Scope> scopes(Settings settings) {
    String given = settings.get("partitioned", "false").trim().toLowerCase(Locale.ROOT);
    return switch (given) {
      case "false" -> List.of(Scope.GLOBAL);
      case "true" -> List.of(Scope.PARTITIONED);
      case "both" -> List.of(Scope.GLOBAL, Scope.PARTITIONED);
      default -> throw new QueryException("-Dpartitioned=" + given + ": give false (a global database), true (a"
          + " partitioned one) or both (the same data in each, the same queries side by side)");
    };
  }

  /**
   * @param scope a kind of database
   * @param mango true for the database holding the Mango indexes, false for the one holding the views (where Mango
   *     has no index)
   * @return its name
   */
  public String database(Scope scope, boolean mango) {
    return prefix + "_" + scope.value() + (mango ? "_mango" : "");
  }

  /** @return every database of the run */
  public List<String> databases() {
    List<String> names = new ArrayList<>();
    for (Scope scope : scopes) {
      names.add(database(scope, false));
      names.add(database(scope, true));
    }
    return names;
  }

  /** @return the run's load, in a line */
  public String describe() {
    return String.format(Locale.ROOT, "%,d orders of %,d customers (seed %d) in %s; %d users, %,d requests each;"
            + " shares: %s%s", docs, owners, seed,
        scopes.stream().map(Scope::value).collect(Collectors.joining(" and ")) + " databases", users, requests,
        shares.entrySet().stream().map(share -> share.getKey().value() + ":" + share.getValue())
            .collect(Collectors.joining(",")), writeShare > 0 ? ",write:" + writeShare : "")
        + (sumReduce == SumReduce.BUILTIN ? "" : "; the sum view reduces in " + sumReduce.value());
  }
}
