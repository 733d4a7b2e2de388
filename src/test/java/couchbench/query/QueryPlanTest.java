package couchbench.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryPlanTest {

  @Test
  void shouldAskEveryClassAnEqualShareOfAGlobalDatabaseWithoutWritesByDefault() {
    QueryPlan plan = plan(Map.of());

    assertEquals(List.of(QueryClass.values()), List.copyOf(plan.shares().keySet()));
    assertTrue(plan.shares().values().stream().allMatch(share -> share == 1));
    assertEquals(0, plan.writeShare());
    assertEquals(List.of(Scope.GLOBAL), plan.scopes());
    assertEquals(50, plan.owners(), "10,000 orders, 200 a customer");
    assertEquals(List.of("couchbench_query_global", "couchbench_query_global_mango"), plan.databases());
    assertEquals(SumReduce.BUILTIN, plan.sumReduce());
    assertEquals("_sum", QueryIndexes.views(plan.sumReduce()).get(0).reduce().orElseThrow());
  }

  @Test
  void shouldSumInJavaScriptWhenAsked() {
    QueryPlan plan = plan(Map.of("reduce", " JavaScript"));

    assertEquals(SumReduce.JAVASCRIPT, plan.sumReduce());
    assertEquals(QueryIndexes.BY_OWNER_STATUS.id(), QueryIndexes.views(plan.sumReduce()).get(0).id());
    assertTrue(QueryIndexes.views(plan.sumReduce()).get(0).reduce().orElseThrow().contains("sum(values)"));
    assertTrue(plan.describe().endsWith("; the sum view reduces in javascript"), plan.describe());
  }

  @Test
  void shouldTakeAMixOfClassesAndWritesAndBothKindsOfDatabase() {
    QueryPlan plan = plan(Map.of("mix", "range:9, write:1", "partitioned", "both"));

    assertEquals(Map.of(QueryClass.RANGE, 9), plan.shares());
    assertEquals(1, plan.writeShare());
    assertEquals(List.of(Scope.GLOBAL, Scope.PARTITIONED), plan.scopes());
    assertEquals(4, plan.databases().size());
  }

  @Test
  void shouldRefuseWhatCannotRunInOneLineNamingTheSetting() {
    assertMessage("-Dqueries=range,nearest: no query class nearest; there are equality, range,",
        Map.of("queries", "range,nearest"));
    assertMessage("-Dmix=range:x: give names and weights, e.g. equality:9,write:1", Map.of("mix", "range:x"));
    assertMessage("-Dmix=range:0: range:0: a weight above 0, each name once", Map.of("mix", "range:0"));
    assertMessage("-Dmix=write:1: give at least one query class beside the writes", Map.of("mix", "write:1"));
    assertMessage("-Dqueries and -Dmix are both given", Map.of("mix", "range:1", "queries", "range"));
    assertMessage("-Dpartitioned=maybe: give false", Map.of("partitioned", "maybe"));
    assertMessage("-Dinjector: Query runs on one injector", Map.of("injector", "1/2"));
    assertMessage("-Dreduce=erlang: give builtin or javascript", Map.of("reduce", "erlang"));
  }

  private static void assertMessage(String start, Map<String, String> properties) {
    QueryException refused = assertThrows(QueryException.class, () -> plan(properties));
    assertTrue(refused.getMessage().startsWith(start), refused.getMessage());
  }

  private static QueryPlan plan(Map<String, String> properties) {
    return QueryPlan.from(Settings.of(properties, Map.of()));
  }
}
