package couchbench.viewquery;

import static io.gatling.javaapi.core.CoreDsl.bodyLength;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import couchbench.couchdb.CouchHttp;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The named chains of ViewQuery's httperf connection: a virtual user is one connection (Gatling's default: no
 * connection is shared between users), which opens, sends its calls one after the other, and closes as the user
 * ends. Every reply must be 200 with the view's {@code total_rows}; the connections' tally is httperf's figures.
 * Each round has its chains, request name and tally of its own.
 */
public final class ViewQueryChains {

  private static final String CONN_START = "viewquery.connStart";
  private static final String SENT = "viewquery.sent";
  private static final String STATUS = "viewquery.status";
  private static final String SIZE = "viewquery.size";

  private final ViewQueryPlan plan;
  private final CouchTarget target;
  private final List<ConnTally> tallies;
  // Known once the index-building query has answered, before the first user starts.
  private final AtomicLong expectedRows = new AtomicLong(-1);

  /**
   * The chains of a plan against a target.
   *
   * @param plan calls per connection, view
   * @param target the CouchDB server
   */
  public ViewQueryChains(ViewQueryPlan plan, CouchTarget target) {
    this.plan = plan;
    this.target = target;
    this.tallies = plan.rounds().numbers().stream().map(round -> new ConnTally()).toList();
  }

  /**
   * @param round the round, 1 to rounds
   * @return the chain that starts a connection's clock, as the user's first action
   */
  public ChainBuilder connectionOpens(int round) {
    ConnTally tally = tally(round);
    return exec(session -> session.set(CONN_START, tally.connectionStarted()));
  }

  /**
   * @param round the round, 1 to rounds
   * @return the chain that stops a connection's clock, after its last reply; Gatling closes it as the user ends
   */
  public ChainBuilder connectionCloses(int round) {
    ConnTally tally = tally(round);
    return exec(session -> {
      tally.connectionEnded(session.getLong(CONN_START));
      return session;
    });
  }

  /**
   * One call: {@code GET} the view, checked (status 200, {@code total_rows}), then counted as httperf counts it.
   *
   * @param round the round, 1 to rounds
   * @return the chain
   */
  public ChainBuilder query(int round) {
    ConnTally tally = tally(round);
    return exec(session -> session.remove(STATUS).remove(SIZE).set(SENT, tally.requestSent()))
        .exec(CouchHttp.stopOnRefusal(target, http(plan.requestName(round))
            .get(plan.path())
            .check(
                // The reply time is taken here, in the first check, as soon as the whole reply is in, whatever
                // its status: after the checks it would also hold the JSON parsing of total_rows.
                status()
                    .transformWithSession((status, session) -> {
                      tally.countReply(session.getLong(SENT), status);
                      return status;
                    })
                    .saveAs(STATUS),
                bodyLength().saveAs(SIZE),
                status().is(200),
                jsonPath("$.total_rows").ofLong().is(session -> expectedRows.get()).name("total_rows"))))
        .exec(session -> {
          if (session.contains(SIZE)) {
            tally.countReplySize(session.getInt(SIZE));
          }
          if (!session.contains(STATUS)) {
            tally.countUnanswered();
          }
          if (session.isFailed()) {
            tally.countFailed();
            return session.markAsSucceeded(); // the next call of this connection is judged on its own
          }
          return session;
        });
  }

  /**
   * Sets what every reply's {@code total_rows} must be; call before the load starts.
   *
   * @param rows the view's row count, from the index-building query
   */
  public void expectRows(long rows) {
    expectedRows.set(rows);
  }

  /** @return what each round's connections did, round 1 first; call once the load is over */
  public List<ConnFigures> figures() {
    return tallies.stream().map(ConnTally::figures).toList();
  }

  private ConnTally tally(int round) {
    return tallies.get(round - 1);
  }
}
