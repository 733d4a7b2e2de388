package couchbench.simulation;

import couchbench.report.SummaryPage;
import couchbench.results.ClusterResults;
import couchbench.results.Results;
import couchbench.run.RunContext;
import couchbench.run.RunExtension;
import couchbench.startup.Settings;
import java.nio.file.Path;
import java.util.Optional;

/** The run extension that reports a run over several CouchDB nodes (or with -Dq/-Dn) per node ({@link ClusterReport}). */
final class ClusterExtension implements RunExtension {

  /** How `exec:java@extensions` lists it. */
  static final Spec SPEC = new Spec("cluster", "on with several nodes in -Dcouchdb.url, or -Dq, -Dn, -Dw, -Dr",
      "reads each node's figures before and after the load, what each was sent and answered, each database's"
          + " doc_count through every node and its shards, for results.json and the page",
      "nothing during the load: a few requests to each node before and after it");

  private Optional<ClusterReport> report = Optional.empty();
  private ClusterResults found;

  static Optional<RunExtension> from(Settings settings) {
    return Optional.of(new ClusterExtension());
  }

  @Override
  public void loadStarts(RunContext run) {
    report = run.couchdb().flatMap(ClusterReport::before);
  }

  @Override
  public void loadEnds(RunContext run) {
    found = report.map(nodes -> nodes.after(run.couchDatabases())).orElse(null);
  }

  @Override
  public Results addTo(Results results) {
    return found == null ? results : results.withCluster(found);
  }

  @Override
  public SummaryPage addTo(SummaryPage page, Results results, Path folder) {
    return found == null ? page : found.addTo(page);
  }
}
