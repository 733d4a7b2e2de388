package couchbench.viewquery;

import static io.gatling.javaapi.core.CoreDsl.bodyLength;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import couchbench.couchdb.CouchHttp;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The measured load, httperf's way: new virtual users arrive at a constant rate whatever the
 * replies do (an open model), each opens its own connection (Gatling's default: no connection is
 * shared between users), sends its calls one after the other, and ends, which closes its
 * connection. Every reply must be 200 with the view's {@code total_rows}.
 */
public final class ViewQueryLoad {

  private static final String CONN_START = "viewquery.connStart";
  private static final String SENT = "viewquery.sent";
  private static final String STATUS = "viewquery.status";

  private final ViewQueryPlan plan;
  private final CouchTarget target;
  private final ConnTally tally = new ConnTally();
  // Known once the index-building query has answered, before the first user starts.
  private final AtomicLong expectedRows = new AtomicLong(-1);

  /**
   * The load for a plan against a target.
   *
   * @param plan rate, connections, calls per connection, view
   * @param target the CouchDB server
   */
  public ViewQueryLoad(ViewQueryPlan plan, CouchTarget target) {
    this.plan = plan;
    this.target = target;
  }

  /**
   * The request name in Gatling's report, e.g. {@code view list}; the index-building query is not
   * one of these.
   *
   * @return the name
   */
  public String requestName() {
    return "view " + plan.design().view();
  }

  /**
   * The population: {@code conns} users spread evenly over {@link ViewQueryPlan#duration()}.
   *
   * @return the population, ready for setUp
   */
  public PopulationBuilder population() {
    return scenario("ViewQuery")
        .exec(session -> session.set(CONN_START, tally.connectionStarted()))
        .repeat(plan.callsPerConn())
        .on(call())
        .exec(session -> {
          tally.connectionEnded(session.getLong(CONN_START));
          return session;
        })
        .injectOpen(rampUsers(plan.conns()).during(plan.duration()));
  }

  /**
   * Sets what every reply's {@code total_rows} must be; call before the load starts.
   *
   * @param rows the view's row count, from the index-building query
   */
  public void expectRows(long rows) {
    expectedRows.set(rows);
  }

  /** @return what the connections did */
  public ConnTally tally() {
    return tally;
  }

  private ChainBuilder call() {
    return exec(session -> session.remove(STATUS).set(SENT, tally.requestSent()))
        .exec(CouchHttp.stopOnRefusal(target, http(requestName())
            .get(plan.path())
            .check(
                // Checks run in order as soon as the whole reply is in: the reply is recorded there,
                // whatever its status, before the JSON is parsed, so that parsing is not timed.
                // (A check sees the session as it was before the checks: nothing saved by another.)
                status()
                    .transformWithSession((status, session) -> {
                      tally.replied(session.getLong(SENT), status);
                      return status;
                    })
                    .saveAs(STATUS),
                bodyLength().transform(tally::replySize),
                status().is(200),
                jsonPath("$.total_rows").ofLong().is(session -> expectedRows.get()).name("total_rows"))))
        .exec(session -> {
          if (!session.contains(STATUS)) {
            tally.unanswered();
          }
          if (session.isFailed()) {
            tally.failed();
            return session.markAsSucceeded(); // the next call of this connection is judged on its own
          }
          return session;
        });
  }
}
