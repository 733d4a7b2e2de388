package couchbench.bulkinsert;

import static org.junit.jupiter.api.Assertions.assertEquals;

import couchbench.startup.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BulkInsertPlanTest {

  private static BulkInsertPlan plan(Map<String, String> settings) {
    return BulkInsertPlan.from(Settings.of(settings, Map.of()));
  }

  @Test
  void shouldWarmUpEveryKindOfRequestTheStepsSendOnceInTheirOrder() {
    BulkInsertPlan plan = plan(Map.of("batchSizes", "1,64,1024", "threads", "1,2", "warmup", "600"));

    List<String> kinds = plan.warmup().stream().map(BulkInsertStep::name).toList();
    assertEquals(List.of("single T=2", "bulk B=1 T=2", "bulk B=64 T=2", "bulk B=1024 T=2"), kinds,
        "each kind once, with as many users as the largest step");
    assertEquals(List.of(300, 300, 5, 1), plan.warmup().stream().map(BulkInsertStep::requestsPerUser).toList(),
        "600 documents of each kind, as -Dwarmup says, at least one request per user");
    assertEquals(List.of(300, 300, 128, 8), plan(Map.of("batchSizes", "1,64,1024", "threads", "1,2")).warmup().stream()
            .map(BulkInsertStep::requestsPerUser).toList(),
        "by default, 600 documents of each kind, and at least 256 requests for the JIT up to 16384 documents");
    assertEquals(1, plan.warmup().stream().map(BulkInsertStep::database).distinct().count(), "one database");
    assertEquals(true, plan.warmup().get(0).single());
    assertEquals("/" + plan.warmup().get(0).database(), plan.warmup().get(0).path(), "single: POST /db");
  }

  @Test
  void shouldGiveEveryKindTheJitsRequestsWithinItsBound() {
    assertEquals(300, BulkInsertPlan.warmupRequestsPerUser(600, true, 1, 2), "the documents asked for, when more");
    assertEquals(128, BulkInsertPlan.warmupRequestsPerUser(600, true, 64, 2), "256 requests in all");
    assertEquals(64, BulkInsertPlan.warmupRequestsPerUser(600, true, 128, 2), "no more than 16384 documents for it");
    assertEquals(1, BulkInsertPlan.warmupRequestsPerUser(600, true, 1024, 16), "at least one request per user");
    assertEquals(49, BulkInsertPlan.warmupRequestsPerUser(100_000, true, 1024, 2), "the documents asked for");
    assertEquals(5, BulkInsertPlan.warmupRequestsPerUser(600, false, 64, 2), "without the floor: the documents");
  }

  @Test
  void shouldMakeUpTheJitsRequestsWithOneDocumentEachWhenTheStepsSendOnlyLargeBatches() {
    BulkInsertPlan plan = plan(Map.of("batchSizes", "1024", "threads", "1,2", "single", "false"));

    assertEquals(List.of("bulk B=1024 T=2", "bulk B=1 T=2"), plan.warmup().stream().map(BulkInsertStep::name).toList(),
        "the steps' kind, then one-document requests to _bulk_docs");
    assertEquals(List.of(8, 120), plan.warmup().stream().map(BulkInsertStep::requestsPerUser).toList(),
        "16384 documents of B=1024, and the rest of 256 requests in one-document ones");
    assertEquals(256, plan.warmupRequests());
    assertEquals(plan.warmup().get(0).database(), plan.warmup().get(1).database(), "one database");
    assertEquals(List.of("bulk B=1024 T=2"),
        plan(Map.of("batchSizes", "1024", "threads", "1,2", "single", "false", "warmup", "600")).warmup().stream()
            .map(BulkInsertStep::name).toList(),
        "an explicit -Dwarmup is sent as given");
  }

  @Test
  void shouldWarmUpNothingWhenAskedForNone() {
    assertEquals(List.of(), plan(Map.of("batchSizes", "1,64", "warmup", "0")).warmup());
  }
}
