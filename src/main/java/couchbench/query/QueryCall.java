package couchbench.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * One query, drawn: its class, way and database, the customer and values it asks for, the request (or requests, page
 * after page) that asks it, and the exact answer, known from the data, that its replies are checked against. Used by
 * one virtual user at a time.
 */
final class QueryCall {

  /** What a check returns for a reply that is right. */
  static final String RIGHT = "right";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> CITY_PREFIXES = List.of("San", "Sa", "D", "B", "Se", "M");

  private final QueryClass queryClass;
  private final Way way;
  private final Scope scope;
  private final String database;
  private final String owner;
  private final String name;
  private final ObjectNode selector;
  private final String queryString;
  private final List<String> expectedIds;
  private final long expectedSum;
  private final int limit;

  private final List<String> seen = new ArrayList<>();
  private long sum;
  private int pages;
  private String bookmark = "";
  private String pageStart = "";
  private boolean done;

  private QueryCall(QueryClass queryClass, Way way, Scope scope, String database, String owner, ObjectNode selector,
      String queryString, List<String> expectedIds, long expectedSum, int limit) {
    this.queryClass = queryClass;
    this.way = way;
    this.scope = scope;
    this.database = database;
    this.owner = owner;
    this.name = requestName(queryClass, way, scope);
    this.selector = selector;
    this.queryString = queryString;
    this.expectedIds = expectedIds;
    this.expectedSum = expectedSum;
    this.limit = limit;
  }

  /**
   * @param queryClass what is asked
   * @param way how
   * @param scope where
   * @return its request name, e.g. "range / index / partitioned"
   */
  static String requestName(QueryClass queryClass, Way way, Scope scope) {
    return queryClass.value() + " / " + way.value() + " / " + scope.value();
  }

  /**
   * Draws a query: the customer and the values asked for, and their answer from the data.
   *
   * @param queryClass what is asked
   * @param way how
   * @param scope where
   * @param plan the run's plan, for the databases' names
   * @param orders the data
   * @param random the user's random numbers
   * @return the query, not asked yet
   */
  static QueryCall draw(QueryClass queryClass, Way way, Scope scope, QueryPlan plan, Orders orders,
      SplittableRandom random) {
    int ownerNumber = random.nextInt(orders.owners());
    String owner = Orders.owner(ownerNumber);
    List<Orders.Order> theirs = orders.of(ownerNumber);
    ObjectNode selector = JSON.createObjectNode().put("owner", owner);
    String database = plan.database(scope, way.indexed());
    Predicate<Orders.Order> matches;
    String queryString;
    int limit = Math.max(1, orders.orders().size());
    switch (queryClass) {
      case EQUALITY, SUM -> {
        String status = way == Way.PARTIAL ? "cancelled" : pick(Orders.STATUSES, random);
        selector.put("status", status);
        matches = order -> order.status().equals(status);
        queryString = "key=" + key(owner, status) + (queryClass == QueryClass.SUM ? "&reduce=true"
            : "&reduce=false&include_docs=true");
      }
      case RANGE -> {
        long from = Orders.EPOCH + random.nextLong(Orders.TS_MODULUS * 4 / 5);
        long to = from + Orders.TS_MODULUS / 5;
        selector.putObject("ts").put("$gte", from).put("$lt", to);
        matches = order -> order.ts() >= from && order.ts() < to;
        queryString = "startkey=" + key(owner, from) + "&endkey=" + key(owner, to)
            + "&inclusive_end=false&include_docs=true";
      }
      case SORT -> {
        selector.putObject("ts").put("$gte", 0);
        matches = order -> true;
        limit = 10;
        queryString = "startkey=" + encode("[\"" + owner + "\",{}]") + "&endkey=" + encode("[\"" + owner + "\"]")
            + "&descending=true&limit=10&include_docs=true";
      }
      case IN -> {
        List<String> two = new ArrayList<>(Orders.STATUSES);
        String first = two.remove(random.nextInt(two.size()));
        String second = pick(two, random);
        selector.putObject("status").putArray("$in").add(first).add(second);
        matches = order -> order.status().equals(first) || order.status().equals(second);
        queryString = "keys=" + encode("[" + raw(owner, first) + "," + raw(owner, second) + "]")
            + "&reduce=false&include_docs=true";
      }
      case OR -> {
        String status = pick(Orders.STATUSES, random);
        int least = Orders.AMOUNTS - 1 - random.nextInt(Orders.AMOUNTS / 10);
        ArrayNode either = selector.putArray("$or");
        either.addObject().put("status", status);
        either.addObject().putObject("amount").put("$gte", least);
        matches = order -> order.status().equals(status) || order.amount() >= least;
        queryString = "";
      }
      case REGEX -> {
        String prefix = pick(CITY_PREFIXES, random);
        selector.putObject("address.city").put("$regex", "^" + prefix);
        matches = order -> order.city().startsWith(prefix);
        queryString = "startkey=" + key(owner, prefix) + "&endkey=" + key(owner, prefix + "\ufff0")
            + "&include_docs=true";
      }
      case ELEMMATCH -> {
        String tag = pick(Orders.TAGS, random);
        selector.putObject("tags").putObject("$elemMatch").put("$eq", tag);
        matches = order -> order.tags().contains(tag);
        queryString = "key=" + key(owner, tag) + "&include_docs=true";
      }
      case SCAN -> {
        // About ten orders of the whole database match: a partition holds a few, or none.
        int width = Math.max(1, (int) Math.min(Orders.AMOUNTS, 10L * Orders.AMOUNTS / orders.orders().size()));
        int from = random.nextInt(Math.max(1, Orders.AMOUNTS - width));
        selector.remove("owner");
        selector.putObject("amount").put("$gte", from).put("$lt", from + width);
        theirs = scope == Scope.GLOBAL ? orders.orders() : theirs;
        matches = order -> order.amount() >= from && order.amount() < from + width;
        queryString = "";
      }
      case PAGE -> {
        matches = order -> true;
        limit = QueryPlan.PAGE_SIZE;
        queryString = (way == Way.VIEW ? "endkey=" + encode("[\"" + owner + "\",{}]") + "&"
            : scope == Scope.GLOBAL ? "endkey=" + encode("\"" + owner + ":\ufff0\"") + "&" : "")
            + "include_docs=true&limit=" + (QueryPlan.PAGE_SIZE + 1);
      }
      default -> throw new IllegalStateException("no query for " + queryClass);
    }
    List<Orders.Order> answer = theirs.stream().filter(matches)
        .sorted(queryClass == QueryClass.SORT ? Comparator.comparingLong(Orders.Order::ts).reversed()
            : Comparator.comparing(Orders.Order::id))
        .limit(queryClass == QueryClass.SORT ? 10 : Long.MAX_VALUE).toList();
    QueryCall call = new QueryCall(queryClass, way, scope, database, owner, selector, queryString,
        answer.stream().map(Orders.Order::id).toList(), answer.stream().mapToLong(Orders.Order::amount).sum(), limit);
    if (queryClass == QueryClass.PAGE && way == Way.VIEW) {
      call.pageStart = "startkey=" + encode("[\"" + owner + "\"]");
    } else if (queryClass == QueryClass.PAGE && scope == Scope.GLOBAL) {
      call.pageStart = "startkey=" + encode("\"" + owner + ":\"");
    }
    return call;
  }

  /** @return the ids of its answer, known from the data: in order where sorted, else by id */
  List<String> expectedIds() {
    return expectedIds;
  }

  /** @return its request name */
  String name() {
    return name;
  }

  /** @return whether it is asked with a GET (a view, _all_docs) rather than a POST (Mango) */
  boolean get() {
    return !way.mango();
  }

  /** @return the path of its next request, with the query string of a view or _all_docs */
  String path() {
    Optional<String> partition = scope == Scope.PARTITIONED ? Optional.of(owner) : Optional.empty();
    String start = pageStart.isEmpty() ? "" : "&" + pageStart;
    if (way == Way.VIEW) {
      return QueryIndexes.view(queryClass).queryPath(database, partition) + "?" + queryString + start;
    }
    if (way == Way.ALL_DOCS) {
      return "/" + database + partition.map(p -> "/_partition/" + p).orElse("") + "/_all_docs?" + queryString + start;
    }
    return "/" + database + partition.map(p -> "/_partition/" + p).orElse("") + "/_find";
  }

  /** @return the body of its next Mango request, "" for a GET */
  String body() {
    if (!way.mango()) {
      return "";
    }
    ObjectNode body = JSON.createObjectNode();
    body.set("selector", selector);
    body.put("limit", limit).put("execution_stats", true);
    if (way != Way.MANGO) {
      body.set("use_index", QueryIndexes.mango(queryClass, way).useIndex());
    }
    if (way == Way.COVERING) {
      body.putArray("fields").add("_id").add("owner").add("status");
    } else if (queryClass == QueryClass.SUM) {
      body.putArray("fields").add("_id").add("amount");
    }
    if (queryClass == QueryClass.SORT) {
      ArrayNode sort = body.putArray("sort");
      sort.addObject().put("owner", "desc");
      sort.addObject().put("ts", "desc");
    }
    if (!bookmark.isEmpty()) {
      body.put("bookmark", bookmark);
    }
    return body.toString();
  }

  /** @return whether it was answered (every page), or given up */
  boolean done() {
    return done;
  }

  /** Gives it up: its request failed, and was counted so. */
  void abandon() {
    done = true;
  }

  /**
   * Checks a reply against the answer: a whole answer, or a page of one (then the answer is checked with the last).
   *
   * @param body the reply's body
   * @param tally where the server's execution_stats and warnings are counted
   * @return {@link #RIGHT}, or what is wrong; either way, when it was the last page, {@link #done} is true after
   */
  String check(byte[] body, QueryTally tally) {
    JsonNode reply;
    try {
      reply = JSON.readTree(body);
    } catch (IOException e) {
      done = true;
      return "not JSON: " + e.getMessage();
    }
    if (reply == null || reply.isMissingNode()) {
      done = true;
      return "an empty reply";
    }
    if (reply.has("error")) {
      done = true;
      return "refused: " + reply.path("error").asText() + ": " + reply.path("reason").asText();
    }
    String wrong = way.mango() ? mangoPage(reply, tally) : rowsPage(reply);
    pages++;
    if (wrong != null) {
      done = true;
      return wrong;
    }
    if (queryClass != QueryClass.PAGE) {
      done = true;
    } else if (!done && pages > expectedIds.size() / QueryPlan.PAGE_SIZE + 2) {
      done = true;
      return "more pages than " + expectedIds.size() + " orders fill: the server repeats them";
    }
    return done ? answered() : RIGHT;
  }

  private String mangoPage(JsonNode reply, QueryTally tally) {
    JsonNode docs = reply.path("docs");
    if (!docs.isArray()) {
      return "no docs array in the reply";
    }
    JsonNode stats = reply.path("execution_stats");
    tally.reply(name, stats.isObject() ? new long[] {stats.path("total_docs_examined").asLong(),
        stats.path("total_keys_examined").asLong(), stats.path("results_returned").asLong()} : null,
        reply.path("warning").asText(""));
    for (JsonNode doc : docs) {
      seen.add(doc.path("_id").asText());
      sum += doc.path("amount").asLong();
    }
    if (queryClass == QueryClass.PAGE) {
      String next = reply.path("bookmark").asText("");
      if (docs.size() == QueryPlan.PAGE_SIZE && (next.isEmpty() || next.equals(bookmark))) {
        return "a full page without a new bookmark: the server does not page with bookmarks";
      }
      bookmark = next;
      done = docs.size() < QueryPlan.PAGE_SIZE;
    }
    return null;
  }

  private String rowsPage(JsonNode reply) {
    JsonNode rows = reply.path("rows");
    if (!rows.isArray()) {
      return "no rows array in the reply";
    }
    if (queryClass == QueryClass.SUM) {
      sum = rows.isEmpty() ? 0 : rows.get(0).path("value").asLong();
      seen.addAll(expectedIds);
      return null;
    }
    int shown = queryClass == QueryClass.PAGE ? Math.min(rows.size(), QueryPlan.PAGE_SIZE) : rows.size();
    for (int row = 0; row < shown; row++) {
      seen.add(rows.get(row).path("id").asText());
    }
    if (queryClass == QueryClass.PAGE) {
      done = rows.size() <= QueryPlan.PAGE_SIZE;
      if (!done) {
        // A view's next page starts at the next row's key and id; _all_docs's key is the id.
        JsonNode next = rows.get(QueryPlan.PAGE_SIZE);
        pageStart = "startkey=" + encode(next.path("key").toString()) + (way == Way.VIEW ? "&startkey_docid="
            + encode(next.path("id").asText()) : "");
      }
    }
    return null;
  }

  // The whole answer, once every page is in: the ids (in order where sorted), and the sum where summed.
  private String answered() {
    if (queryClass == QueryClass.SUM && sum != expectedSum) {
      return "sum " + sum + ", not " + expectedSum;
    }
    List<String> got = new ArrayList<>(seen);
    List<String> expected = new ArrayList<>(expectedIds);
    if (queryClass != QueryClass.SORT) {
      got.sort(null);
    }
    if (got.equals(expected)) {
      return RIGHT;
    }
    Set<String> extra = new HashSet<>(got);
    expected.forEach(extra::remove);
    Set<String> missing = new HashSet<>(expected);
    got.forEach(missing::remove);
    return got.size() + " orders, not " + expected.size() + (missing.isEmpty() ? "" : "; missing e.g. "
        + missing.iterator().next()) + (extra.isEmpty() ? "" : "; not asked for e.g. " + extra.iterator().next())
        + (missing.isEmpty() && extra.isEmpty() ? "; duplicated or out of order" : "");
  }

  private static String pick(List<String> values, SplittableRandom random) {
    return values.get(random.nextInt(values.size()));
  }

  private static String raw(String owner, Object value) {
    ArrayNode key = JSON.createArrayNode().add(owner);
    if (value instanceof Long number) {
      key.add(number);
    } else {
      key.add(value.toString());
    }
    return key.toString();
  }

  private static String key(String owner, Object value) {
    return encode(raw(owner, value));
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
