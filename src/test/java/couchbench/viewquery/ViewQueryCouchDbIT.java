package couchbench.viewquery;

import couchbench.GatlingRun;
import couchbench.couchdb.CouchDbClient;
import couchbench.targets.CouchTarget;
import couchbench.targets.Credentials;
import couchbench.targets.RealCouchDb;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ViewQuery against a real Apache CouchDB 3.5 node: an index build followed in _active_tasks until it ends. */
class ViewQueryCouchDbIT {

  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(2);

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  @Test
  void shouldFollowAnIndexBuildLongerThanTheReplyTimeoutWithItsProgressFromActiveTasks() throws Exception {
    String url = COUCHDB.node().url();
    // CouchDB's background indexer (ken) starts a view's build as soon as its design document is saved, and finished
    // this one before the run's JVM had started (first query 0.12 s). Without channels it starts none: the run's
    // first query starts the build, and waits for it, as on a server whose indexer is busy elsewhere.
    COUCHDB.node().request("PUT", "/_node/_local/_config/ken/batch_channels", "\"0\"");
    COUCHDB.node().request("PUT", "/_node/_local/_config/ken/incremental_channels", "\"0\"");
    SlowView.create(new CouchDbClient(new CouchTarget(url, Optional.of(new Credentials(RealCouchDb.USER,
        RealCouchDb.PASSWORD)), false)), "viewquery_slow");

    GatlingRun.Result run = GatlingRun.run("ViewQuery", COUCHDB.runProperties(SlowView.runProperties(url,
        "viewquery_slow")), RUN_TIMEOUT);

    // The indexer's progress as _active_tasks lists it.
    SlowView.assertFollowed(run, "viewquery_slow", "\\d{1,3}%");
  }
}
