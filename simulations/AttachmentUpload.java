import static couchbench.gatling.Populations.oneAfterAnother;
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
import couchbench.simulation.CouchbenchSimulation;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.util.List;

/**
 * Seed 002: the time to upload an attachment of 10^n bytes standalone (raw), inline in base64,
 * as multipart/related, and inline in a _bulk_docs batch; bodies streamed from generated files;
 * the whole sweep of sizes -Drounds times. See docs/attachments.md.
 */
public class AttachmentUpload extends CouchbenchSimulation {

  private final AttachmentPlan plan = orExit(() -> AttachmentPlan.from(settings));
  private final CouchTarget couchdb = couchdbTarget();
  private final AttachmentData.Prepared data = orExit(() -> AttachmentData.prepare(plan));
  private final CouchDbClient client = new CouchDbClient(couchdb);
  private final AttachmentChains uploads = new AttachmentChains(plan, couchdb, data.sizes());

  private final HttpProtocolBuilder couchProtocol = CouchHttp.protocol(couchdb);

  /** One size in one round: turns of every method, each upload timed, then read back. */
  private ChainBuilder size(int exponent, int round) {
    return exec(uploads.sizeStarts(exponent, round))
        .exec(plan.uploads(exponent, round).stream().map(uploads::upload).toList());
  }

  /** One round: one user sends every upload of the sweep, one after the other (timing, not concurrency). */
  private PopulationBuilder round(int round) {
    return scenario(plan.rounds().name(simulation(), round))
        .exec(plan.exponents().stream().map(exponent -> size(exponent, round)).toList())
        .injectOpen(atOnceUsers(1));
  }

  {
    Console.say(data.describe(plan.dataDir()));
    Console.say(plan.describe());
    setUp(oneAfterAnother(plan.rounds().numbers().stream().map(this::round).toList()))
        .protocols(couchProtocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  protected void prepare() {
    uploads.createDatabase(client);
  }

  @Override
  protected List<String> couchDatabases() {
    return List.of(plan.database());
  }

  @Override
  protected Report<?> report() {
    AttachmentFigures figures = new AttachmentFigures(List.of(plan.database()), CouchHttp.loginWasRefused(),
        uploads.tally().figures());
    AttachmentSummary.seedTable(plan, figures).forEach(Console::say);
    return new Report<>(List.of(couchdb.describe()), AttachmentSummary.of(plan), figures);
  }

  @Override
  protected void cleanUp() {
    uploads.dropDatabase(client);
  }
}
