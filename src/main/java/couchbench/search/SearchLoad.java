package couchbench.search;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.DocWriteReply;
import couchbench.results.Progress;
import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Search run's load: the documents loaded into a fresh database, the Nouveau index built and timed, every search
 * class asked once before the load (a refusal stops the run there, in one line); then the users, each asking its
 * searches one after the other (a bookmark walk page after page) and writing new documents by its share, every reply
 * checked against the answer known from the data.
 */
public final class SearchLoad implements ExperimentLoad<SearchFigures> {

  private static final String USER = "search.user";
  private static final String CALL = "search.call";
  private static final int LOAD_BATCH = 1000;

  private final SearchPlan plan;
  private final CouchTarget target;
  private final Corpus corpus;
  private final AtomicInteger userNumbers = new AtomicInteger();
  private final LongAdder ended = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LongAdder writes = new LongAdder();
  private SearchIndex index;
  private double loadSeconds;
  private SearchFigures.Build build;

  /**
   * @param plan the run's plan
   * @param target the CouchDB server, with Nouveau
   */
  public SearchLoad(SearchPlan plan, CouchTarget target) {
    this.plan = plan;
    this.target = target;
    this.corpus = Corpus.generate(plan.docs(), plan.seed());
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
    index = new SearchIndex(client, target, plan.database());
    index.requireNouveau();
    client.createDatabase(plan.database());
    fill(client);
    build = index.build(plan.docs());
    SplittableRandom random = new SplittableRandom(plan.seed());
    int asked = 0;
    for (SearchClass searchClass : plan.shares().keySet()) {
      SearchCall call = SearchCall.draw(searchClass, index.path(), corpus, random);
      while (!call.done()) {
        CouchReply reply = client.get(call.path());
        asked++;
        if (reply.status() != 200) {
          throw new SearchException("CouchDB at " + target.baseUrl() + " refused the " + searchClass.value()
              + " search (" + searchClass.description() + "): " + reply.status() + " " + reply.reason() + "; leave "
              + searchClass.value() + " out of -Dsearches");
        }
        String verdict = call.check(reply.body());
        if (!verdict.equals(SearchCall.RIGHT)) {
          throw new SearchException("CouchDB at " + target.baseUrl() + " answered the " + searchClass.value()
              + " search (" + searchClass.description() + ") wrong: " + verdict);
        }
      }
    }
    Console.say(String.format(Locale.ROOT, "search: each of the %d classes asked once before the load: %d requests,"
        + " every answer right", plan.shares().size(), asked));
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

  /** @return a user's chain: -Drequests searches or writes, one after the other, a walk page after page */
  public ChainBuilder user() {
    return exec(session -> session.set(USER, new SearchUser(userNumbers.getAndIncrement(), plan, index.path(),
        corpus)))
        .repeat(plan.requests()).on(exec(session -> session.set(CALL, ((SearchUser) session.get(USER)).next()))
            .doIfOrElse(session -> session.get(CALL) instanceof SearchUser.Write)
            .then(exec(CouchHttp.stopOnRefusal(target, http("write")
                .put(session -> ((SearchUser.Write) session.get(CALL)).path())
                .body(StringBody(session -> ((SearchUser.Write) session.get(CALL)).body()))
                .check(status().in(201, 202)))).exec(session -> ended(session, false)))
            .orElse(asLongAs(session -> !call(session).done()).on(exec(CouchHttp.stopOnRefusal(target,
                http(session -> call(session).name()).get(session -> call(session).path())
                    .check(status().is(200), bodyBytes().transformWithSession((body, session) ->
                        call(session).check(body)).is(SearchCall.RIGHT))))
                .exec(session -> ended(session, true)))));
  }

  // A failed request ends its search (counted failed); the user goes on with the next.
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
    return session.markAsSucceeded();
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
    return new SearchFigures(plan.describe(), loadSeconds, build, writes.sum());
  }

  @Override
  public List<String> couchDatabases() {
    return List.of(plan.database());
  }

  @Override
  public Summary<SearchFigures> summary() {
    return new SearchSummary();
  }
}
