package couchbench.viewquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.DesignDocument;
import couchbench.startup.Settings;
import couchbench.targets.CouchTarget;
import couchbench.targets.CouchWaits;
import couchbench.targets.PouchDbServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** ViewSetup against a real pouchdb-server, in-process: what is put in place, and what stops a run. */
class ViewSetupIT {

  private static PouchDbServer couch;
  private static CouchDbClient client;

  @BeforeAll
  static void startCouch() {
    couch = PouchDbServer.start();
    client = new CouchDbClient(new CouchTarget(couch.url(), Optional.empty(), false));
  }

  @AfterAll
  static void stopCouch() {
    couch.close();
  }

  @Test
  void shouldSetUpTheSeedsDataOnceAndTimeTheIndexBuild() {
    ViewQueryPlan plan = plan("setup_twice", Map.of("rows", "1500"));

    IndexBuild first = ViewSetup.prepare(client, plan);
    IndexBuild second = ViewSetup.prepare(client, plan);

    assertEquals(1502, first.totalRows(), "the seed's two and -Drows, over two _bulk_docs batches");
    assertEquals(Optional.of(DesignDocument.Outcome.CREATED), first.design());
    assertTrue(first.millis() > 0);
    assertEquals(1502, second.totalRows(), "a second setup adds nothing");
    assertEquals(Optional.of(DesignDocument.Outcome.UNCHANGED), second.design());
    assertEquals(1502, client.docCount("setup_twice") - 1, "documents and the design document");
    assertEquals("not done", client.document("setup_twice", "couchbench-seed-erlang").orElseThrow()
        .path("status").asText());
  }

  @Test
  void shouldDropTheDatabaseFirstWithSetupFreshSoThatEveryRunBuildsTheView() {
    ViewQueryPlan plan = plan("setup_fresh", Map.of("rows", "20", "setup", "fresh"));
    ViewSetup.prepare(client, plan);
    client.putDocument("setup_fresh", "left-by-someone", "{\"task\": \"other\"}");

    IndexBuild again = ViewSetup.prepare(client, plan);

    assertEquals(Optional.of(DesignDocument.Outcome.CREATED), again.design(), "the view built anew");
    assertEquals(22, again.totalRows(), "the other document dropped with the database");
  }

  @Test
  void shouldReplaceADesignDocumentWithAnotherMapFunction() {
    client.ensureDatabase("setup_replace");
    DesignDocument other = new DesignDocument("todo", "list", "function(doc) { emit(doc.task, null); }");
    client.putDocument("setup_replace", other.id(), other.json(Optional.empty()));

    IndexBuild build = ViewSetup.prepare(client, plan("setup_replace", Map.of()));

    assertEquals(Optional.of(DesignDocument.Outcome.REPLACED), build.design());
    assertEquals(ViewQueryPlan.SEED_MAP, client.document("setup_replace", "_design/todo").orElseThrow()
        .path("views").path("list").path("map").asText());
    assertEquals(2, build.totalRows());
  }

  @Test
  void shouldStopWhenTheDatabaseHoldsOtherDocuments() {
    client.ensureDatabase("setup_crowded");
    client.putDocument("setup_crowded", "someone-elses", "{\"task\":\"mine\"}");

    ViewQueryException e = assertThrows(ViewQueryException.class,
        () -> ViewSetup.prepare(client, plan("setup_crowded", Map.of())));

    assertTrue(e.getMessage().contains("has 3 rows, expected 2"), e.getMessage());
  }

  @Test
  void shouldStopFollowingAnIndexBuildAtTheIndexTimeoutNamingTheSetting() {
    SlowView.create(client, "setup_slow");
    CouchDbClient limited = new CouchDbClient(new CouchTarget(couch.url(), Optional.empty(), false)
        .waiting(new CouchWaits(Duration.ofSeconds(30), Optional.of(Duration.ofSeconds(1)))));
    ViewQueryPlan plan = plan("setup_slow", Map.of("setup", "false", "design", SlowView.DESIGN.name(), "view",
        SlowView.DESIGN.view()));

    long start = System.nanoTime();
    CouchDbException e = assertThrows(CouchDbException.class, () -> ViewSetup.prepare(limited, plan));

    assertEquals("index build: setup_slow/_design/slow not answered within 1 s (-DindexTimeout=1): raise"
        + " -DindexTimeout, or leave it out to follow the build until it ends", e.getMessage());
    assertTrue(System.nanoTime() - start < Duration.ofMillis(5 * SlowView.DOCUMENTS).toNanos(),
        "given up at the limit, before the build could end");
    // The server goes on building; without the limit, the build is followed to its end (and off the next tests).
    assertEquals(SlowView.DOCUMENTS, ViewSetup.prepare(client, plan).totalRows());
  }

  private static ViewQueryPlan plan(String database, Map<String, String> more) {
    Map<String, String> properties = new HashMap<>(more);
    properties.put("database", database);
    return ViewQueryPlan.from(Settings.of(properties, Map.of()));
  }
}
