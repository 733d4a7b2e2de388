package couchbench.query;

import couchbench.distributions.SmoothTurns;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * One virtual user's draws: which query (or write) comes next, by the shares of -Dmix, smoothly interleaved
 * ({@link SmoothTurns}: each share gets exactly its part of every whole round); within a class, its ways
 * and databases in turn, each user starting at another; the values asked from the user's own random numbers.
 */
final class QueryUser {

  /** A query class's ways and databases, asked in turn; or, with no class, a write. */
  private record Share(QueryClass queryClass, int weight, List<Combination> combinations) {}

  /** What a query class is asked by, and where. */
  record Combination(QueryClass queryClass, Way way, Scope scope) {}

  /**
   * A new order written by the load: owned by no customer a query asks for, with an amount no scan asks for.
   *
   * @param name its request name
   * @param path where it is PUT
   * @param body the document
   */
  record OrderWrite(String name, String path, String body) {}

  private final int number;
  private final QueryPlan plan;
  private final Orders orders;
  private final SplittableRandom random;
  private final List<Share> shares = new ArrayList<>();
  private final SmoothTurns turnsOfShares;
  private final int[] turns;
  private int writes;

  /**
   * @param number the user's number, from 0
   * @param plan the run's plan
   * @param orders the data
   */
  QueryUser(int number, QueryPlan plan, Orders orders) {
    this.number = number;
    this.plan = plan;
    this.orders = orders;
    this.random = new SplittableRandom(plan.seed() * 1_000_003L + number);
    plan.shares().forEach((queryClass, weight) -> shares.add(new Share(queryClass, weight,
        combinations(queryClass, plan))));
    if (plan.writeShare() > 0) {
      shares.add(new Share(null, plan.writeShare(), List.of()));
    }
    this.turnsOfShares = new SmoothTurns(shares.stream().mapToInt(Share::weight).toArray());
    this.turns = new int[shares.size()];
  }

  /**
   * @param queryClass a query class
   * @param plan the run's plan
   * @return every way it is asked, in each database of the run
   */
  static List<Combination> combinations(QueryClass queryClass, QueryPlan plan) {
    List<Combination> all = new ArrayList<>();
    for (Scope scope : plan.scopes()) {
      for (Way way : queryClass.ways()) {
        all.add(new Combination(queryClass, way, scope));
      }
    }
    return all;
  }

  /** @return the next request: a {@link QueryCall} or an {@link OrderWrite} */
  Object next() {
    int chosen = turnsOfShares.next();
    Share share = shares.get(chosen);
    if (share.queryClass() == null) {
      return write();
    }
    Combination next = share.combinations().get((turns[chosen]++ + number) % share.combinations().size());
    return QueryCall.draw(next.queryClass(), next.way(), next.scope(), plan, orders, random);
  }

  // The databases in turn: each kind of index is kept up to date for the same writes.
  private OrderWrite write() {
    List<String> databases = plan.databases();
    String database = databases.get((writes + number) % databases.size());
    String id = String.format(Locale.ROOT, "writes:u%04d-%07d", number, writes++);
    String body = new Orders.Order(id, "writes", Orders.EPOCH - 1, "new", -1, List.of(), "Boston", "02108").json()
        .toString();
    return new OrderWrite("write / " + database.substring(plan.prefix().length() + 1), "/" + database + "/" + id,
        body);
  }
}
