package couchbench.search;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.doIfOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.group;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.DocWriteReply;
import couchbench.curve.CurvePlan;
import couchbench.curve.StaircaseLoad;
import couchbench.curve.StepFigures;
import couchbench.results.Progress;
import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Search run's load: the documents loaded into a fresh database, the Nouveau index built and timed (while writes
 * come with -DbuildRate; rebuilt after a change of its function with -Drebuild), every search class asked once before
 * the load (a refusal stops the run there, in one line); then the users, each asking its
 * searches one after the other (a bookmark walk page after page) and writing new documents by its share, every reply
 * checked against the answer known from the data.
 */
public final class SearchLoad implements ExperimentLoad<SearchFigures> {

  /** The group timing each freshness write from its acknowledgement to the search that found it. */
  public static final String FOUND_BY_SEARCH = "write found by search";

  private static final String USER = "search.user";
  private static final String CALL = "search.call";
  private static final String FRESH = "search.fresh";
  private static final String VERDICT = "search.verdict";
  private static final String SINCE = "search.since";
  private static final int LOAD_BATCH = 1000;
  // Between a freshness writer's searches for its write, so that one not found yet is not asked for in a busy loop.
  private static final Duration SEARCH_AGAIN_AFTER = Duration.ofMillis(10);

  private final SearchPlan plan;
  private final CouchTarget target;
  private final Corpus corpus;
  private final AtomicInteger userNumbers = new AtomicInteger();
  private final AtomicLong writeNumbers = new AtomicLong();
  private final Freshness freshness = new Freshness();
  private final LongAdder ended = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LongAdder writes = new LongAdder();
  private final Map<SearchPlan.Question, StaircaseLoad> staircases = new LinkedHashMap<>();
  private SearchIndex index;
  private double loadSeconds;
  private SearchFigures.Build build;
  private SearchFigures.Build rebuild;
  private Map<String, Double> comparisonBuilds = Map.of();

  /**
   * @param plan the run's plan
   * @param target the CouchDB server, with Nouveau
   */
  public SearchLoad(SearchPlan plan, CouchTarget target) {
    this.plan = plan;
    this.target = target;
    this.corpus = Corpus.generate(plan.docs(), plan.seed(), plan.partitioned());
    plan.curve().ifPresent(steps -> plan.questions().forEach(question -> staircases.put(question,
        new StaircaseLoad(steps, question.name(), plan.users(), Console::say))));
  }

  /**
   * Before the load: the server checked for Nouveau, the database made fresh and filled, the index built, each class
   * asked once.
   *
   * @throws SearchException when the server has no Nouveau, refuses the index or a search, or answers one wrong
   * @throws couchbench.couchdb.CouchDbException when it does not answer as CouchDB
   */
  @Override
  public void prepare() {
    CouchDbClient client = new CouchDbClient(target);
    index = new SearchIndex(client, target, plan.database(), plan.partitioned());
    index.requireNouveau();
    client.createDatabase(plan.database(), plan.partitioned());
    fill(client);
    BuildWriters writers = new BuildWriters(client, plan, writeNumbers::getAndIncrement);
    build = writers.during(() -> index.build(plan.docs()));
    writers.requireAllFound();
    if (plan.rebuild()) {
      rebuild = writers.during(() -> index.rebuild(plan.docs()));
      writers.requireAllFound();
    }
    comparisonBuilds = index.buildComparisons(plan.engines());
    SplittableRandom random = new SplittableRandom(plan.seed());
    int asked = 0;
    for (SearchPlan.Question question : plan.questions()) {
      SearchClass searchClass = question.searchClass();
      SearchCall call = SearchCall.draw(searchClass, question.engine(), index.path(), plan.database(), plan.update(),
          corpus, random);
      while (!call.done()) {
        CouchReply reply = call.post() ? client.exchange("POST", call.path(), call.body()) : client.get(call.path());
        asked++;
        if (reply.status() != 200) {
          throw new SearchException("CouchDB at " + target.baseUrl() + " refused the " + call.name()
              + " search (" + searchClass.description() + "): " + reply.status() + " " + reply.reason() + "; leave "
              + searchClass.value() + " out of -Dsearches");
        }
        String verdict = call.check(reply.body());
        if (!verdict.equals(SearchCall.RIGHT)) {
          throw new SearchException("CouchDB at " + target.baseUrl() + " answered the " + call.name()
              + " search (" + searchClass.description() + ") wrong: " + verdict);
        }
      }
    }
    Console.say(String.format(Locale.ROOT, "search: each of the %d classes asked once before the load%s: %d requests,"
        + " every answer right", plan.shares().size(), plan.engines().size() > 1 ? " of each of the "
        + plan.engines().size() + " engines" : "", asked));
  }

  private void fill(CouchDbClient client) {
    long start = System.nanoTime();
    long said = start;
    for (int first = 0; first < plan.docs(); first += LOAD_BATCH) {
      int count = Math.min(LOAD_BATCH, plan.docs() - first);
      StringBuilder docs = new StringBuilder("{\"docs\":[");
      for (int number = first; number < first + count; number++) {
        docs.append(number == first ? "" : ",").append(corpus.docs().get(number).json());
      }
      DocWriteReply reply = client.insertDocuments(plan.database(), docs.append("]}").toString()
          .getBytes(StandardCharsets.UTF_8), count);
      if (reply.stored() != count) {
        throw new SearchException("CouchDB at " + target.baseUrl() + " stored " + reply.stored() + " of " + count
            + " documents loading " + plan.database() + ": " + reply.verdict());
      }
      if (System.nanoTime() - said > 10_000_000_000L) {
        said = System.nanoTime();
        Console.say(String.format(Locale.ROOT, "search: %,d of %,d documents loaded", first + count, plan.docs()));
      }
    }
    loadSeconds = (System.nanoTime() - start) / 1e9;
    Console.say(String.format(Locale.ROOT, "search: %,d documents loaded into %s in %.1f s", plan.docs(),
        plan.database(), loadSeconds));
  }

  /** @return a user's start: its own draws, by the shares of the mix */
  public ChainBuilder newUser() {
    return newUser(Optional.empty());
  }

  private ChainBuilder newUser(Optional<SearchPlan.Question> only) {
    return exec(session -> session.set(USER, new SearchUser(userNumbers.getAndIncrement(), plan, index.path(),
        corpus, writeNumbers::getAndIncrement, only)));
  }

  /**
   * @return a user's next request: a search (a walk page after page) or a write, by the shares of the mix; a failed
   *     one is counted, and the user goes on
   */
  public ChainBuilder nextRequest() {
    return request().exec(Session::markAsSucceeded);
  }

  /**
   * Under -Dtarget or -Dtargets: one class of one engine alone, each search at its intended start at the step's rate
   * (a bookmark walk, every page, is one search), step after step of its own staircase, which times each from its
   * intended start.
   *
   * @param question the class and the engine
   * @return a user's whole load of it, from its start
   */
  public ChainBuilder climb(SearchPlan.Question question) {
    return newUser(Optional.of(question)).exec(staircases.get(question).climb(request()));
  }

  // A search or a write, the session left failed when it failed: a staircase counts it so.
  private ChainBuilder request() {
    return exec(session -> session.set(CALL, ((SearchUser) session.get(USER)).next()))
        .doIfOrElse(session -> session.get(CALL) instanceof Write)
        .then(exec(write("write", CALL)).exec(session -> ended(session, false)))
        .orElse(asLongAs(session -> !call(session).done()).on(doIfOrElse(session -> call(session).post())
                .then(exec(checked(http(session -> call(session).name()).post(session -> call(session).path())
                    .body(StringBody(session -> call(session).body())).asJson())))
                .orElse(exec(checked(http(session -> call(session).name()).get(session -> call(session).path()))))
            .exec(session -> ended(session, true))));
  }

  /**
   * @return a freshness writer's chain: one write, then searches for it (its own word) until a reply has it, timed
   *     whole from its acknowledgement to that reply as the group {@link #FOUND_BY_SEARCH}; not found within
   *     {@link SearchPlan#FIND_WITHIN}, the group fails
   */
  public ChainBuilder freshWriter() {
    return exec(session -> {
      long number = writeNumbers.getAndIncrement();
      return session.set(FRESH, Write.of(plan.database(), number, new SplittableRandom(plan.seed() + number),
          plan.partitioned()));
    })
        .exec(write("fresh write", FRESH))
        .doIf(session -> !session.isFailed()).then(group(FOUND_BY_SEARCH).on(
            exec(session -> session.set(SINCE, System.nanoTime()).set(VERDICT, Freshness.NOT_YET))
                .asLongAs(session -> !session.isFailed() && session.getString(VERDICT).equals(Freshness.NOT_YET)
                    && System.nanoTime() - session.getLong(SINCE) < SearchPlan.FIND_WITHIN.toNanos())
                .on(exec(CouchHttp.stopOnRefusal(target, http("fresh search")
                        .get(session -> Freshness.path(plan.database(), session.get(FRESH), plan.update()))
                        .check(bodyBytes().transformWithSession((body, session) ->
                            freshness.verdict(body, session.get(FRESH))).in(Freshness.FOUND, Freshness.NOT_YET)
                            .name("search for the write").logActualValueInError(true).saveAs(VERDICT))))
                    .doIf(session -> session.getString(VERDICT).equals(Freshness.NOT_YET))
                    .then(pause(SEARCH_AGAIN_AFTER)))
                .exec(session -> {
                  if (session.isFailed()) {
                    return session; // a search failed: Gatling's report has why
                  }
                  boolean found = session.getString(VERDICT).equals(Freshness.FOUND);
                  freshness.ended(found);
                  return found ? session : session.markAsFailed();
                })));
  }

  // Every reply checked against the answer; the check names a refusal too (503 without the Nouveau server): no status
  // check first.
  private ChainBuilder checked(HttpRequestActionBuilder request) {
    return CouchHttp.stopOnRefusal(target, request.check(bodyBytes()
        .transformWithSession((body, session) -> call(session).check(body)).is(SearchCall.RIGHT).name("search answer")
        // Gatling leaves a body check's actual value out of its message; this one is a short verdict.
        .logActualValueInError(true)));
  }

  private ChainBuilder write(String name, String key) {
    return CouchHttp.stopOnRefusal(target, http(name).put(session -> ((Write) session.get(key)).path())
        .body(StringBody(session -> ((Write) session.get(key)).body())).check(status().in(201, 202)));
  }

  // A failed request ends its search (counted failed).
  private Session ended(Session session, boolean search) {
    ended.increment();
    if (session.isFailed()) {
      failed.increment();
      if (search) {
        call(session).abandon();
      }
    } else if (!search) {
      writes.increment();
    }
    return session;
  }

  private static SearchCall call(Session session) {
    return session.get(CALL);
  }

  @Override
  public List<Progress.Source> progress() {
    return List.of(Progress.Source.of("requests", () -> new Progress.Counts(ended.sum(), failed.sum())));
  }

  @Override
  public String describe() {
    return plan.describe();
  }

  @Override
  public SearchFigures figures() {
    Map<String, List<StepFigures>> steps = new LinkedHashMap<>();
    staircases.forEach((question, staircase) -> steps.put(question.name(), staircase.steps()));
    return new SearchFigures(plan.describe(), loadSeconds, build, rebuild, writes.sum(), freshness.figures(),
        plan.curve().map(CurvePlan::describe).orElse(""), steps, comparisonBuilds);
  }

  @Override
  public List<String> couchDatabases() {
    return List.of(plan.database());
  }

  @Override
  public Summary<SearchFigures> summary() {
    return new SearchSummary();
  }

  /** @return the Nouveau server, where it runs on this machine: sampled each second beside CouchDB */
  @Override
  public List<LocalServer> otherLocalServers() {
    return index.nouveauProcess().stream().toList();
  }
}
