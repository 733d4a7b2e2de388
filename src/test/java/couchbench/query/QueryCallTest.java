package couchbench.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.startup.Settings;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A query's requests and the check of its replies, against replies made here from the data as a server would. */
class QueryCallTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final QueryPlan PLAN = QueryPlan.from(Settings.of(Map.of("docs", "2000", "partitioned", "both"),
      Map.of()));
  private static final Orders ORDERS = Orders.generate(PLAN.docs(), PLAN.owners(), PLAN.seed());

  @Test
  void shouldAskAPartitionsMangoIndexWithItsSelectorAndExecutionStats() throws Exception {
    QueryCall call = QueryCall.draw(QueryClass.RANGE, Way.INDEX, Scope.PARTITIONED, PLAN, ORDERS,
        new SplittableRandom(1));
    JsonNode body = JSON.readTree(call.body());

    assertTrue(call.path().matches("/couchbench_query_partitioned_mango/_partition/c\\d{4}/_find"), call.path());
    assertEquals(call.path().split("/")[3], body.path("selector").path("owner").asText(), "the partition's customer");
    assertTrue(body.path("selector").path("ts").has("$gte") && body.path("selector").path("ts").has("$lt"));
    assertEquals("[\"mango-owner-ts\",\"owner-ts\"]", body.path("use_index").toString());
    assertTrue(body.path("execution_stats").asBoolean());
    assertEquals("range / index / partitioned", call.name());
  }

  @Test
  void shouldAcceptTheExactAnswerAndCountTheServersStatsAndWarning() throws Exception {
    QueryCall call = QueryCall.draw(QueryClass.EQUALITY, Way.MANGO, Scope.GLOBAL, PLAN, ORDERS,
        new SplittableRandom(2));
    List<String> ids = call.expectedIds();
    JsonNode selector = JSON.readTree(call.body()).path("selector");
    assertEquals(ORDERS.orders().stream().filter(order -> order.owner().equals(selector.path("owner").asText())
        && order.status().equals(selector.path("status").asText())).map(Orders.Order::id).sorted().toList(), ids,
        "the answer, from the data");
    QueryTally tally = new QueryTally();
    ObjectNode reply = mangoReply(ids);
    reply.putObject("execution_stats").put("total_docs_examined", 2000).put("total_keys_examined", 0)
        .put("results_returned", ids.size());
    reply.put("warning", "No matching index found");

    assertEquals(QueryCall.RIGHT, call.check(bytes(reply), tally));
    assertTrue(call.done());
    QueryFigures.ServerWork work = tally.figures().get(0);
    assertEquals(2000, work.docsExamined());
    assertEquals(ids.size(), work.resultsReturned());
    assertEquals(1, work.warnings());
    assertEquals("No matching index found", work.firstWarning());
  }

  @Test
  void shouldNameAMissingAndAForeignOrder() {
    QueryCall call = QueryCall.draw(QueryClass.ELEMMATCH, Way.INDEX, Scope.GLOBAL, PLAN, ORDERS,
        new SplittableRandom(3));
    List<String> ids = call.expectedIds();
    List<String> wrong = new ArrayList<>(ids.subList(1, ids.size()));
    wrong.add("c9999:0000000");

    String verdict = call.check(bytes(mangoReply(wrong)), new QueryTally());

    assertEquals(ids.size() + " orders, not " + ids.size() + "; missing e.g. " + ids.get(0)
        + "; not asked for e.g. c9999:0000000", verdict);
  }

  @Test
  void shouldRefuseTheLatestTenOutOfOrder() {
    QueryCall call = QueryCall.draw(QueryClass.SORT, Way.VIEW, Scope.GLOBAL, PLAN, ORDERS, new SplittableRandom(4));
    List<String> latest = call.expectedIds();
    assertEquals(10, latest.size());
    List<String> swapped = new ArrayList<>(latest);
    Collections.swap(swapped, 0, 1);

    assertEquals("10 orders, not 10; duplicated or out of order", call.check(bytes(viewReply(swapped)),
        new QueryTally()));
    QueryCall again = QueryCall.draw(QueryClass.SORT, Way.VIEW, Scope.GLOBAL, PLAN, ORDERS, new SplittableRandom(4));
    assertEquals(QueryCall.RIGHT, again.check(bytes(viewReply(latest)), new QueryTally()));
  }

  @Test
  void shouldPageAViewByStartkeyDocidUntilAShortPageAndCheckTheWhole() throws Exception {
    QueryCall call = QueryCall.draw(QueryClass.PAGE, Way.VIEW, Scope.GLOBAL, PLAN, ORDERS, new SplittableRandom(5));
    List<Orders.Order> theirs = ORDERS.orders().stream()
        .filter(order -> call.path().contains(URLEncoder.encode("[\"" + order.owner() + "\"]",
            StandardCharsets.UTF_8)))
        .sorted(Comparator.comparingLong(Orders.Order::ts)).toList();
    assertEquals(200, theirs.size(), "2,000 orders of 10 customers");
    int pages = 0;
    for (int first = 0; !call.done(); first += QueryPlan.PAGE_SIZE) {
      List<Orders.Order> rows = theirs.subList(first, Math.min(theirs.size(), first + QueryPlan.PAGE_SIZE + 1));
      String verdict = call.check(bytes(viewRows(rows)), new QueryTally());
      pages++;
      assertEquals(QueryCall.RIGHT, verdict);
      if (!call.done()) {
        Orders.Order next = theirs.get(first + QueryPlan.PAGE_SIZE);
        assertTrue(call.path().endsWith("&startkey_docid=" + URLEncoder.encode(next.id(),
            StandardCharsets.UTF_8)), call.path());
      }
    }
    assertEquals(8, pages, "200 orders, 25 a page: the 8th page holds the last 25 and no 26th row");
  }

  @Test
  void shouldStopPagingMangoWhenAFullPageComesWithoutANewBookmark() {
    QueryCall call = QueryCall.draw(QueryClass.PAGE, Way.MANGO, Scope.GLOBAL, PLAN, ORDERS, new SplittableRandom(6));
    ObjectNode page = mangoReply(call.expectedIds().subList(0, QueryPlan.PAGE_SIZE));

    assertEquals(QueryCall.RIGHT, call.check(bytes(page.put("bookmark", "b1")), new QueryTally()));
    assertFalse(call.done());
    assertTrue(call.body().contains("\"bookmark\":\"b1\""), call.body());
    assertEquals("a full page without a new bookmark: the server does not page with bookmarks",
        call.check(bytes(page), new QueryTally()));
    assertTrue(call.done());
  }

  @Test
  void shouldCheckTheViewsSumAgainstTheAmounts() {
    QueryCall call = QueryCall.draw(QueryClass.SUM, Way.VIEW, Scope.PARTITIONED, PLAN, ORDERS,
        new SplittableRandom(7));
    ObjectNode reply = JSON.createObjectNode();
    reply.putArray("rows").addObject().putNull("key").put("value", 12345);

    assertTrue(call.path().contains("/_partition/c"), call.path());
    assertTrue(call.check(bytes(reply), new QueryTally()).matches("sum 12345, not \\d+"));
  }

  private static ObjectNode mangoReply(List<String> ids) {
    ObjectNode reply = JSON.createObjectNode();
    ArrayNode docs = reply.putArray("docs");
    ids.forEach(id -> docs.addObject().put("_id", id));
    return reply;
  }

  private static ObjectNode viewReply(List<String> ids) {
    ObjectNode reply = JSON.createObjectNode();
    ArrayNode rows = reply.putArray("rows");
    ids.forEach(id -> rows.addObject().put("id", id));
    return reply;
  }

  private static ObjectNode viewRows(List<Orders.Order> orders) {
    ObjectNode reply = JSON.createObjectNode();
    ArrayNode rows = reply.putArray("rows");
    orders.forEach(order -> rows.addObject().put("id", order.id()).set("key",
        JSON.createArrayNode().add(order.owner()).add(order.ts())));
    return reply;
  }

  private static byte[] bytes(JsonNode reply) {
    return reply.toString().getBytes(StandardCharsets.UTF_8);
  }
}
