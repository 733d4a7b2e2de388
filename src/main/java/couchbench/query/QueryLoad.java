package couchbench.query;

import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.doIfOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.DocWriteReply;
import couchbench.results.Progress;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Query run's load: the orders loaded into each database (made fresh), every index built and timed, every query
 * class asked once each way before the load (a refusal stops the run there, in one line); then the users, each asking
 * its queries one after the other, every reply checked against the answer known from the data.
 */
public final class QueryLoad implements ExperimentLoad<QueryFigures> {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String USER = "query.user";
  private static final String CALL = "query.call";
  private static final int LOAD_BATCH = 1000;

  private final List<String> leftOut = new ArrayList<>();
  private QueryPlan plan;
  private final CouchTarget target;
  private final Orders orders;
  private final QueryTally tally = new QueryTally();
  private final AtomicInteger userNumbers = new AtomicInteger();
  private double loadSeconds;
  private List<QueryFigures.IndexBuild> builds = List.of();

  /**
   * @param plan the run's plan
   * @param target the CouchDB server
   */
  public QueryLoad(QueryPlan plan, CouchTarget target) {
    this.plan = plan;
    this.target = target;
    this.orders = Orders.generate(plan.docs(), plan.owners(), plan.seed());
  }

  /**
   * Before the load: the databases made fresh and filled, the indexes built, each query asked once.
   *
   * @throws QueryException when the server makes a global database of a partitioned one, refuses an index or a query
   * @throws couchbench.couchdb.CouchDbException when it does not answer as CouchDB
   */
  @Override
  public void prepare() {
    CouchDbClient client = new CouchDbClient(target);
    for (Scope scope : plan.scopes()) {
      for (String database : List.of(plan.database(scope, false), plan.database(scope, true))) {
        client.createDatabase(database, scope == Scope.PARTITIONED);
        if (scope == Scope.PARTITIONED && !partitioned(client, database)) {
          client.deleteDatabase(database);
          throw new QueryException("the server at " + target.baseUrl() + " made " + database + " a global database"
              + " (GET /" + database + " has no props.partitioned): it has no partitioned databases (CouchDB 3.x"
              + " has; pouchdb-server has not), so a partitioned query cannot run: give -Dpartitioned=false");
        }
      }
    }
    fill(client);
    builds = new IndexBuilds(plan, target, client).buildAll();
    int asked = 0;
    for (QueryClass queryClass : List.copyOf(plan.shares().keySet())) {
      try {
        for (QueryUser.Combination combination : QueryUser.combinations(queryClass, plan)) {
          asked += askedOnce(client, combination);
        }
      } catch (QueryException refused) {
        if (!plan.byDefault() || plan.shares().size() == 1) {
          throw refused;
        }
        // Every class by default: the others still run, and the page says which one did not, and why.
        plan = plan.without(queryClass);
        leftOut.add(refused.getMessage().replace("; leave " + queryClass.value() + " out of -Dqueries", ""));
        Console.say("query: " + queryClass.value() + " left out: " + leftOut.get(leftOut.size() - 1)
            + " (name the classes in -Dqueries to stop instead)");
      }
    }
    Console.say(String.format(Locale.ROOT, "query: each of the %d ways and databases asked once, before the load:"
        + " %d requests, every answer right", plan.shares().keySet().stream()
        .mapToInt(queryClass -> QueryUser.combinations(queryClass, plan).size()).sum(), asked));
  }

  private static boolean partitioned(CouchDbClient client, String database) {
    try {
      return JSON.readTree(client.get("/" + database).body()).path("props").path("partitioned").asBoolean(false);
    } catch (IOException e) {
      return false;
    }
  }

  private void fill(CouchDbClient client) {
    long start = System.nanoTime();
    long said = start;
    List<String> databases = plan.databases();
    for (int first = 0; first < plan.docs(); first += LOAD_BATCH) {
      int count = Math.min(LOAD_BATCH, plan.docs() - first);
      StringBuilder docs = new StringBuilder("{\"docs\":[");
      for (int number = first; number < first + count; number++) {
        docs.append(number == first ? "" : ",").append(orders.orders().get(number).json());
      }
      byte[] body = docs.append("]}").toString().getBytes(StandardCharsets.UTF_8);
      for (String database : databases) {
        DocWriteReply reply = client.insertDocuments(database, body, count);
        if (reply.stored() != count) {
          throw new QueryException("CouchDB at " + target.baseUrl() + " stored " + reply.stored() + " of " + count
              + " orders loading " + database + ": " + reply.verdict());
        }
      }
      if (System.nanoTime() - said > 10_000_000_000L) {
        said = System.nanoTime();
        Console.say(String.format(Locale.ROOT, "query: %,d of %,d orders loaded into each of %d databases",
            first + count, plan.docs(), databases.size()));
      }
    }
    loadSeconds = (System.nanoTime() - start) / 1e9;
    Console.say(String.format(Locale.ROOT, "query: %,d orders loaded into each of %s in %.1f s", plan.docs(),
        String.join(", ", databases), loadSeconds));
  }

  // One query of each way, unmeasured: a server that refuses one says so before the load, not 200 times in it.
  private int askedOnce(CouchDbClient client, QueryUser.Combination combination) {
    QueryCall call = QueryCall.draw(combination.queryClass(), combination.way(), combination.scope(), plan, orders,
        new SplittableRandom(plan.seed()));
    QueryTally unmeasured = new QueryTally();
    int requests = 0;
    while (!call.done()) {
      CouchReply reply = client.exchange(call.get() ? "GET" : "POST", call.path(), call.body());
      requests++;
      if (reply.status() != 200) {
        throw new QueryException("CouchDB at " + target.baseUrl() + " refused the " + combination.queryClass().value()
            + " query (" + combination.way().description() + ", " + combination.scope().value() + " database): "
            + reply.status() + " " + reply.reason() + "; leave " + combination.queryClass().value()
            + " out of -Dqueries");
      }
      String verdict = call.check(reply.body(), unmeasured);
      if (!verdict.equals(QueryCall.RIGHT)) {
        throw new QueryException("CouchDB at " + target.baseUrl() + " answered the " + combination.queryClass().value()
            + " query (" + combination.way().description() + ", " + combination.scope().value() + " database) wrong: "
            + verdict + "; leave " + combination.queryClass().value() + " out of -Dqueries");
      }
    }
    return requests;
  }

  /** @return a user's chain: -Drequests queries or writes, one after the other, each query page after page */
  public ChainBuilder user() {
    return exec(session -> session.set(USER, new QueryUser(userNumbers.getAndIncrement(), plan, orders)))
        .repeat(plan.requests()).on(exec(session -> session.set(CALL, user(session).next()))
            .doIfOrElse(session -> session.get(CALL) instanceof QueryUser.OrderWrite)
            .then(exec(CouchHttp.stopOnRefusal(target, write())).exec(session -> ended(session, false)))
            .orElse(asLongAs(session -> !call(session).done()).on(page().exec(session -> ended(session, true)))));
  }

  // A view is asked with a GET, Mango with a POST.
  private ChainBuilder page() {
    return doIfOrElse(session -> call(session).get())
        .then(CouchHttp.stopOnRefusal(target, checked(http(session -> call(session).name())
            .get(session -> call(session).path()))))
        .orElse(CouchHttp.stopOnRefusal(target, checked(http(session -> call(session).name())
            .post(session -> call(session).path()).body(StringBody(session -> call(session).body())))));
  }

  private HttpRequestActionBuilder checked(HttpRequestActionBuilder request) {
    return request.check(status().is(200), bodyBytes().transformWithSession((body, session) ->
        call(session).check(body, tally)).is(QueryCall.RIGHT).name("query answer")
        // Gatling leaves a body check's actual value out of its message; this one is a short verdict.
        .logActualValueInError(true));
  }

  private HttpRequestActionBuilder write() {
    return http(session -> ((QueryUser.OrderWrite) session.get(CALL)).name())
        .put(session -> ((QueryUser.OrderWrite) session.get(CALL)).path())
        .body(StringBody(session -> ((QueryUser.OrderWrite) session.get(CALL)).body()))
        .check(status().in(201, 202));
  }

  // A failed request ends its query (counted failed); the user goes on with the next.
  private Session ended(Session session, boolean query) {
    tally.ended(!session.isFailed());
    if (query && session.isFailed()) {
      call(session).abandon();
    }
    return session.markAsSucceeded();
  }

  private static QueryUser user(Session session) {
    return session.get(USER);
  }

  private static QueryCall call(Session session) {
    return session.get(CALL);
  }

  /** @return the requests ended so far and those that failed, for the progress line */
  @Override
  public List<Progress.Source> progress() {
    return List.of(Progress.Source.of("requests", tally::counts));
  }

  /** @return the load, in a line: the plan's, less the classes the server could not answer */
  @Override
  public String describe() {
    return plan.describe();
  }

  /** @return the run's figures, after the load */
  @Override
  public QueryFigures figures() {
    return new QueryFigures(plan.describe(), loadSeconds, builds, List.copyOf(leftOut), tally.figures());
  }

  @Override
  public List<String> couchDatabases() {
    return plan.databases();
  }

  @Override
  public Summary<QueryFigures> summary() {
    return new QuerySummary();
  }
}
