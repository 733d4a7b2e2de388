import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.attachment.AttachmentChains;
import couchbench.attachment.AttachmentData;
import couchbench.attachment.AttachmentFigures;
import couchbench.attachment.AttachmentPlan;
import couchbench.attachment.AttachmentSummary;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.gatling.Populations;
import couchbench.results.RunOutput;
import couchbench.simulation.RunStart;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.List;

/**
 * Seed 002: the time to upload an attachment of 10^n bytes standalone (raw), inline in base64,
 * as multipart/related, and inline in a _bulk_docs batch; bodies streamed from generated files;
 * the whole sweep of sizes -Drounds times. See README.md.
 */
public class AttachmentUpload extends Simulation {

  private final Settings settings = RunStart.settings();
  private final AttachmentPlan plan = Startup.orExit(() -> AttachmentPlan.from(settings));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(AttachmentUpload.class, settings));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final AttachmentData.Prepared data = Startup.orExit(() -> AttachmentData.prepare(plan));
  private final CouchDbClient client = new CouchDbClient(couchdb);
  private final AttachmentChains uploads = new AttachmentChains(plan, couchdb, data.sizes());

  /** One size in one round: turns of every method, each upload timed, then read back. */
  private ChainBuilder size(int exponent, int round) {
    return exec(uploads.sizeStarts(exponent, round))
        .exec(plan.uploads(exponent, round).stream().map(uploads::upload).toList());
  }

  /** One round: one user sends every upload of the sweep, one after the other (timing, not concurrency). */
  private PopulationBuilder round(int round) {
    return scenario(plan.rounds().name(run.simulation(), round))
        .exec(plan.exponents().stream().map(exponent -> size(exponent, round)).toList())
        .injectOpen(atOnceUsers(1));
  }

  {
    Console.say(data.describe(plan.dataDir()));
    Console.say(plan.describe());
    setUp(Populations.oneAfterAnother(plan.rounds().numbers().stream().map(this::round).toList()))
        .protocols(CouchHttp.protocol(couchdb))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    Startup.orExit(() -> uploads.createDatabase(client));
    run.loadStarts();
  }

  @Override
  public void after() {
    AttachmentFigures figures = new AttachmentFigures(List.of(plan.database()), CouchHttp.loginWasRefused(),
        uploads.tally().figures());
    AttachmentSummary.seedTable(plan, figures).forEach(Console::say);
    run.finish(List.of(couchdb.describe()), AttachmentSummary.of(plan), figures);
    uploads.dropDatabase(client);
  }
}
