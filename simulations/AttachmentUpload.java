import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.attachment.AttachmentData;
import couchbench.attachment.AttachmentLoad;
import couchbench.attachment.AttachmentPlan;
import couchbench.attachment.AttachmentSummary;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.results.RunOutput;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.Simulation;
import java.util.List;

/**
 * Seed 002: the time to upload an attachment of 10^n bytes standalone (raw), inline in base64,
 * as multipart/related, and inline in a _bulk_docs batch; bodies streamed from generated files.
 * See README.md.
 */
public class AttachmentUpload extends Simulation {

  private final Settings settings = Startup.settings();
  private final AttachmentPlan plan = Startup.orExit(() -> AttachmentPlan.from(settings));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(AttachmentUpload.class, settings));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final AttachmentData.Prepared data = Startup.orExit(() -> AttachmentData.prepare(plan));
  private final CouchDbClient client = new CouchDbClient(couchdb);
  private final AttachmentLoad load = new AttachmentLoad(plan, couchdb, data.sizes());

  {
    Console.say(data.describe(plan.dataDir()));
    Console.say(plan.describe());
    setUp(load.population())
        .protocols(CouchHttp.protocol(couchdb))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    Startup.orExit(() -> load.createDatabase(client));
    run.loadStarts();
  }

  @Override
  public void after() {
    run.finish(List.of(couchdb.describe()), log -> AttachmentSummary.page(plan, couchdb, load.tally(), log));
    load.dropDatabase(client);
  }
}
