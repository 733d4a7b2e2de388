package couchbench.replication;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.ReplyJson;
import couchbench.feed.ChangesFeed;
import couchbench.feed.FeedConnections;
import couchbench.feed.FeedKind;
import couchbench.feed.FeedRequest;
import couchbench.feed.FeedTarget;
import couchbench.gatling.Pacing;
import couchbench.ledger.WriteLedger;
import couchbench.results.Histograms;
import couchbench.results.Progress;
import couchbench.results.SeriesKind;
import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import couchbench.targets.CouchTarget;
import couchbench.targets.Credentials;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Replicate run's load: one-shot replications, each a POST /_replicate timed to its reply; or continuous ones, each a
 * _replicator document, whose targets are watched through their _changes while writers write into the sources at a
 * rate. Meanwhile _scheduler is read once a second; after the load, each target is compared with its source.
 */
public final class ReplicationLoad implements ExperimentLoad<ReplicateFigures> {

  /** The report's entry of each write seen on its target, timed from its acknowledgement: the replication lag. */
  public static final String REPLICATED_WRITE = "replicated write";

  /** The report's entry of each target once watched: level with its source (OK), or not, with what it lacked (KO). */
  public static final String TARGET_LEVEL = "target level with its source";

  private static final String JOB = "replicate.job";
  private static final String SENT = "replicate.sent";
  private static final String FIRST_WRITE = "replicate.firstWrite";
  private static final Duration HEARTBEAT = Duration.ofSeconds(5);

  private final ReplicatePlan plan;
  private final CouchTarget source;
  private final CouchTarget target;
  private final Replicas replicas;
  private final WriteLedger ledger;
  private final ReplicationTally tally;
  private final FeedConnections connections = new FeedConnections();
  private final AtomicInteger replicationNumbers = new AtomicInteger();
  private final AtomicInteger watcherNumbers = new AtomicInteger();
  private final AtomicInteger writerNumbers = new AtomicInteger();
  private final ConcurrentLinkedQueue<ReplicaWatcher> watchers = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<ReplicateFigures.OneShot> oneShots = new ConcurrentLinkedQueue<>();
  private SchedulerWatch scheduler;
  private Thread schedulerThread;
  private long loadStart;

  /**
   * @param plan the run's plan
   * @param couchdb the server of the sources, which runs the replications
   */
  public ReplicationLoad(ReplicatePlan plan, CouchTarget couchdb) {
    this.plan = plan;
    this.source = couchdb;
    this.target = plan.target().map(server -> couchdb.node(server.toString())).orElse(couchdb);
    this.replicas = new Replicas(plan, source, target);
    this.ledger = new WriteLedger(plan.jobs(), plan.writes());
    this.tally = new ReplicationTally(plan.jobs());
  }

  /**
   * Before the load: the databases made and filled, one replication tried; then _scheduler read once a second.
   *
   * @throws ReplicationException when the target is not CouchDB or the server cannot replicate to it
   */
  @Override
  public void prepare() {
    replicas.prepare();
    loadStart = System.nanoTime();
    tally.loadStarts(loadStart);
    scheduler = new SchedulerWatch(plan, new CouchDbClient(source), loadStart);
    schedulerThread = new Thread(scheduler, "couchbench-scheduler");
    schedulerThread.setDaemon(true);
    schedulerThread.start();
  }

  /** @return a one-shot replication's chain: its POST /_replicate, timed to the reply, which says what it wrote */
  public ChainBuilder oneShot() {
    return exec(session -> session.set(JOB, replicationNumbers.getAndIncrement()).set(SENT, System.nanoTime()))
        .exec(CouchHttp.stopOnRefusal(source, http("replicate one-shot").post("/_replicate")
            .body(StringBody(session -> replicas.replication(job(session)).toString()))
            .requestTimeout(Duration.ofHours(1))
            .check(bodyBytes().transformWithSession(this::replied).is("replicated"))));
  }

  private String replied(byte[] body, Session session) {
    double seconds = (System.nanoTime() - (long) session.get(SENT)) / 1e9;
    JsonNode reply = ReplyJson.of(body);
    boolean ok = reply.path("ok").asBoolean(false);
    String error = ok ? "" : reply.path("error").asText("no ok") + ": " + reply.path("reason").asText("");
    // CouchDB says it in the reply's history; pouchdb-server at its top.
    JsonNode written = reply.path("history").path(0).path("docs_written");
    oneShots.add(new ReplicateFigures.OneShot(job(session), seconds,
        (written.isMissingNode() ? reply.path("docs_written") : written).asLong(-1), error));
    return ok ? "replicated" : error;
  }

  /** @return a continuous replication's chain: its _replicator document written */
  public ChainBuilder continuous() {
    return exec(session -> session.set(JOB, replicationNumbers.getAndIncrement()))
        .exec(CouchHttp.stopOnRefusal(source, http("start continuous replication")
            .put(session -> "/_replicator/" + replicas.replicatorId(job(session)))
            .body(StringBody(session -> {
              ObjectNode doc = replicas.replication(job(session));
              doc.put("continuous", true);
              return doc.toString();
            }))
            .check(status().in(201, 202))));
  }

  /** @return a watcher of a continuous replication's target: it follows the target until it is level, or -Dquiet */
  public ChangesFeed watcher() {
    FeedTarget feedTarget = new FeedTarget(target.credentials().map(Credentials::authorization),
        target.baseUrl().startsWith("https:") ? Optional.of(target.tls().sslContext()) : Optional.empty(),
        !target.tls().insecure(), Duration.ofSeconds(10));
    return ChangesFeed.follow(session -> {
      int job = watcherNumbers.getAndIncrement();
      ReplicaWatcher watcher = new ReplicaWatcher(plan, ledger, tally, job, URI.create(target.baseUrl()),
          new FeedRequest(plan.target(job), FeedKind.CONTINUOUS, HEARTBEAT, false, 0, Duration.ofSeconds(60),
              Duration.ofSeconds(1), Optional.empty(), List.of()));
      watchers.add(watcher);
      return watcher;
    }).target(feedTarget).connections(connections);
  }

  /**
   * @return a writer's chain: once its replication's first copy is on the target (or -Dquiet passed), -Dwrites
   *     documents into its source, each at its intended start, one every jobs/rate seconds from the first
   */
  public ChainBuilder writer() {
    long everyNanos = Math.round(1e9 * plan.jobs() / plan.rate());
    return exec(session -> session.set(JOB, writerNumbers.getAndIncrement()).set(SENT, System.nanoTime()))
        .asLongAs(session -> !tally.isCopied(job(session))
            && System.nanoTime() - (long) session.get(SENT) < plan.quiet().toNanos())
        .on(pause(Duration.ofMillis(100)))
        .exec(session -> session.set(FIRST_WRITE, System.nanoTime()))
        .repeat(plan.writes(), "write").on(Pacing.untilIntendedStart(session -> session.getLong(FIRST_WRITE)
                + session.getInt("write") * everyNanos)
            .exec(session -> {
              ledger.sent(job(session), session.getInt("write"), System.nanoTime());
              return session;
            })
            .exec(CouchHttp.stopOnRefusal(source, http("write")
                .put(session -> "/" + plan.source(job(session)) + "/" + Replicas.documentId(true, session.getInt(
                    "write")))
                .body(StringBody(session -> Replicas.document(Replicas.documentId(true, session.getInt("write")))))
                .check(status().transformWithSession((status, session) -> {
                  if (status == 201 || status == 202) {
                    ledger.acknowledged(job(session), session.getInt("write"), System.nanoTime());
                  }
                  return status;
                }).in(201, 202))))
            .exec(session -> {
              if (session.isFailed()) {
                ledger.failed(job(session), session.getInt("write"));
              }
              return session.markAsSucceeded();
            }))
        .exec(session -> {
          ledger.writerDone();
          return session;
        });
  }

  private static int job(Session session) {
    return session.getInt(JOB);
  }

  /** @return the writes (or one-shot replications) ended so far, and those that failed, for the progress line */
  @Override
  public List<Progress.Source> progress() {
    return List.of(plan.continuous()
        ? Progress.Source.of("writes", () -> new Progress.Counts(ledger.acknowledgedCount() + ledger.failedCount(),
            ledger.failedCount()))
        : Progress.Source.of("replications", () -> new Progress.Counts(oneShots.size(),
            oneShots.stream().filter(shot -> !shot.error().isEmpty()).count())));
  }

  /** @return the run's figures, after the load: each target compared with its source */
  @Override
  public ReplicateFigures figures() {
    double seconds = (System.nanoTime() - loadStart) / 1e9;
    schedulerThread.interrupt();
    List<ReplicateFigures.OneShot> shots = new ArrayList<>(oneShots);
    shots.sort((a, b) -> Integer.compare(a.job(), b.job()));
    List<ReplicateFigures.Watched> watched = new ArrayList<>();
    watchers.forEach(watcher -> watched.add(watcher.figures(loadStart)));
    watched.sort((a, b) -> Integer.compare(a.job(), b.job()));
    return new ReplicateFigures(plan.describe(), shots, watched, ledger.acknowledgedCount(), ledger.failedCount(),
        tally.arrivals().beforeAck(), Histograms.encode(tally.arrivals().fromAckMicros()),
        Histograms.encode(tally.arrivals().fromSentMicros()), tally.lagBySecond(), scheduler.figures(seconds),
        replicas.compare());
  }

  /** @return the replicated writes, timed from their acknowledgement, and each watched target's verdict */
  @Override
  public Map<SeriesKind, List<String>> countedApart() {
    return Map.of(SeriesKind.LAG, List.of(REPLICATED_WRITE), SeriesKind.VERDICT, List.of(TARGET_LEVEL));
  }

  /** After the report: the _replicator documents removed, so that the replications stop. */
  @Override
  public void cleanUp() {
    replicas.cleanUp();
  }

  @Override
  public String describe() {
    return plan.describe();
  }

  @Override
  public Summary<ReplicateFigures> summary() {
    return new ReplicateSummary();
  }
}
