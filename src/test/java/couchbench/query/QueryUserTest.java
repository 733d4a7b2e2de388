package couchbench.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.startup.Settings;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryUserTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shouldGiveEachShareExactlyItsPartAndAskEveryWayOfAClassInTurn() throws Exception {
    QueryPlan plan = QueryPlan.from(Settings.of(Map.of("docs", "1000", "mix", "equality:3,sum:1,write:1",
        "partitioned", "both"), Map.of()));
    Orders orders = Orders.generate(plan.docs(), plan.owners(), plan.seed());
    QueryUser user = new QueryUser(3, plan, orders);
    Map<String, Integer> counts = new HashMap<>();
    Set<String> writes = new HashSet<>();

    for (int request = 0; request < 500; request++) {
      Object next = user.next();
      if (next instanceof QueryUser.OrderWrite write) {
        counts.merge("write", 1, Integer::sum);
        writes.add(write.path());
        assertEquals(-1, JSON.readTree(write.body()).path("amount").asInt(), "no scan asks for it");
        assertEquals("writes", JSON.readTree(write.body()).path("owner").asText(), "no customer's");
      } else {
        counts.merge(((QueryCall) next).name(), 1, Integer::sum);
      }
    }

    assertEquals(100, counts.get("write"), "a fifth of 500");
    assertEquals(100, writes.size(), "each write a new order");
    // equality: 300 requests over its 5 ways in 2 databases, 30 each; sum: 100 over 3 ways in 2, 16 or 17 each.
    for (QueryUser.Combination way : QueryUser.combinations(QueryClass.EQUALITY, plan)) {
      assertEquals(30, counts.get(QueryCall.requestName(way.queryClass(), way.way(), way.scope())), way.toString());
    }
    for (QueryUser.Combination way : QueryUser.combinations(QueryClass.SUM, plan)) {
      int count = counts.get(QueryCall.requestName(way.queryClass(), way.way(), way.scope()));
      assertTrue(count == 16 || count == 17, way + ": " + count);
    }
  }

  @Test
  void shouldDrawTheSameQueriesForTheSameSeedAndUser() {
    QueryPlan plan = QueryPlan.from(Settings.of(Map.of("docs", "1000"), Map.of()));
    Orders orders = Orders.generate(plan.docs(), plan.owners(), plan.seed());
    QueryUser one = new QueryUser(0, plan, orders);
    QueryUser again = new QueryUser(0, plan, orders);
    for (int request = 0; request < 50; request++) {
      QueryCall first = (QueryCall) one.next();
      QueryCall second = (QueryCall) again.next();
      assertEquals(first.path() + first.body(), second.path() + second.body());
    }
  }

  @Test
  void shouldGenerateTheSameOrdersFromTheSameSeedWithUniqueTimestampsNotInIdOrder() {
    List<Orders.Order> orders = Orders.generate(5000, 25, 7).orders();

    assertEquals(orders, Orders.generate(5000, 25, 7).orders());
    assertEquals(5000, orders.stream().map(Orders.Order::ts).distinct().count());
    assertTrue(orders.get(1).ts() < orders.get(0).ts() || orders.get(2).ts() < orders.get(1).ts()
        || orders.get(3).ts() < orders.get(2).ts(), "a sort by ts is not a sort by id");
    assertEquals(200, Orders.generate(5000, 25, 7).of(3).size());
    assertTrue(Orders.generate(5000, 25, 7).of(3).stream().allMatch(order -> order.id().startsWith("c0003:")));
    long cancelled = orders.stream().filter(order -> order.status().equals("cancelled")).count();
    assertTrue(cancelled > 400 && cancelled < 600, "about a tenth: " + cancelled);
  }
}
