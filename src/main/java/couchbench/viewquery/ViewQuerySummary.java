package couchbench.viewquery;

import com.sun.management.OperatingSystemMXBean;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.RunLog;
import couchbench.targets.CouchTarget;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * After a ViewQuery run: httperf's figures from the run's own records, printed and written beside
 * Gatling's report with the index build, the httperf command that does the same, and how each
 * figure was measured.
 */
public final class ViewQuerySummary {

  private ViewQuerySummary() {}

  /**
   * CPU time this JVM has used so far, to take before and after the load.
   *
   * @return seconds of user and system CPU time, or 0 where the JVM cannot tell
   */
  public static double cpuSeconds() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
      return Math.max(0, os.getProcessCpuTime()) / 1e9;
    }
    return 0;
  }

  /**
   * httperf's figures of a finished load.
   *
   * @param view the finished load's chains, with their tally
   * @param cpuSeconds CPU time of this JVM during the load
   * @param log what the run's simulation.log says; empty when it could not be read (errors are then all "other")
   * @return the figures
   */
  public static HttperfFigures figures(ViewQueryChains view, double cpuSeconds, Optional<RunLog> log) {
    Map<String, Long> messages = log.map(run -> run.failures(view.requestName())).orElse(Map.of());
    return new HttperfFigures(view.tally(), ErrorKinds.count(view.tally().unansweredCount(), messages), cpuSeconds);
  }

  /**
   * The summary page; give it to {@link couchbench.results.RunOutput#finish}.
   *
   * @param simulation the simulation's name, for the title
   * @param plan the run's parameters
   * @param target the server
   * @param indexBuild the first, index-building query
   * @param figures httperf's figures of the load
   * @param log what the run's simulation.log says; empty when it could not be read
   * @param loginRefused whether CouchDB refused the login during the run (CouchHttp.loginWasRefused())
   * @return the page
   */
  public static SummaryPage page(String simulation, ViewQueryPlan plan, CouchTarget target, IndexBuild indexBuild,
      HttperfFigures figures, Optional<RunLog> log, boolean loginRefused) {
    ConnTally tally = figures.tally();
    SummaryPage page = SummaryPage.titled(simulation + ": httperf's figures for GET " + plan.path())
        .line("Target: " + target.describe() + ".")
        .line("The same load with httperf: " + httperfCommand(plan, target) + (!plan.injector().alone()
            ? " (this injector's share: " + f("%.1f", plan.rate()) + " conn/s, " + plan.conns() + " connections)"
            : "") + ".")
        .line("Gatling injected " + plan.conns() + " users over " + plan.duration().toSeconds() + " s ("
            + f("%.1f", plan.effectiveRate()) + " new connections/s), each with its own connection and "
            + plan.callsPerConn() + " call(s); every reply checked: status 200, total_rows "
            + indexBuild.totalRows() + ".")
        .line(indexBuild.describe() + ".");
    if (loginRefused) {
      page = page.warning("CouchDB refused the login during the run, which stopped there.");
    }
    if (tally.failedCount() > 0) {
      page = page.warning(tally.failedCount() + " requests failed (no reply, status other than 200, or"
          + " wrong total_rows): see Gatling's report for the messages.");
    }
    if (log.isEmpty() && tally.unansweredCount() > 0) {
      page = page.warning("Gatling's simulation.log could not be read: errors are all counted as other.");
    }
    page = page.chart("reply rate over the run", ViewQueryCharts.replyRate(tally))
        .chart("connection times", ViewQueryCharts.connectionTimes(tally))
        .text("httperf's figures", figures.lines())
        .line(figures.replyTimeSpread())
        .line("How these are measured: a connection is one virtual user; its time runs from the user's"
            + " first action to its last, after its last reply; Gatling closes the connection just after,"
            + " when the user ends. The reply time is taken around Gatling's HTTP action: from just before"
            + " the request is sent to the whole reply, so it is httperf's response and transfer times"
            + " together, and holds the connect time on a connection's first call (httperf's connect"
            + " figure is n/a here). Reply size is the body's length. Reply rate: replies in each full"
            + " 5 s window from the first connection's start, as httperf samples it. Errors: requests that"
            + " got no reply, sorted by Gatling's failure message.")
        .table("figures", table(figures, indexBuild));
    return page;
  }

  /**
   * The httperf command line that runs the same load.
   *
   * @param plan the parameters
   * @param target the server
   * @return e.g. {@code httperf --client=0/1 --server=127.0.0.1 --port=5984 --uri=/todo/_design/todo/_view/list ...}
   */
  public static String httperfCommand(ViewQueryPlan plan, CouchTarget target) {
    URI uri = URI.create(target.baseUrl());
    int port = uri.getPort() > 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    String prefix = uri.getRawPath() == null ? "" : uri.getRawPath();
    return "httperf --client=" + plan.injector() + " --server=" + uri.getHost() + " --port=" + port
        + " --uri=" + prefix + plan.path() + " --rate=" + number(plan.totalRate())
        + " --num-conns=" + plan.totalConns() + " --num-calls=" + plan.callsPerConn();
  }

  private static Table table(HttperfFigures figures, IndexBuild indexBuild) {
    ConnTally tally = figures.tally();
    Samples.Stats connections = tally.connectionTimes().stats().dividedBy(1e6);
    Samples.Stats replies = tally.replyTimes().stats().dividedBy(1e6);
    Samples.Stats rate = tally.replyRate(HttperfFigures.REPLY_RATE_WINDOW);
    long[] sorted = tally.replyTimes().sorted();
    Table table = Table.of("figure", "value")
        .row("connections", tally.connections())
        .row("requests", tally.requests())
        .row("replies", tally.replies())
        .row("test-duration s", tally.seconds())
        .row("connection rate conn/s", tally.seconds() > 0 ? tally.connections() / tally.seconds() : 0.0)
        .row("concurrent connections max", tally.mostOpen())
        .row("connection time min ms", connections.min())
        .row("connection time avg ms", connections.avg())
        .row("connection time max ms", connections.max())
        .row("connection time median ms", connections.median())
        .row("connection time stddev ms", connections.stddev())
        .row("request rate req/s", tally.seconds() > 0 ? tally.requests() / tally.seconds() : 0.0)
        .row("reply rate min", rate.min())
        .row("reply rate avg", rate.avg())
        .row("reply rate max", rate.max())
        .row("reply rate stddev", rate.stddev())
        .row("reply rate samples", rate.count())
        .row("reply time avg ms", replies.avg())
        .row("reply time median ms", replies.median())
        .row("reply time p95 ms", HttperfFigures.percentile(sorted, 95) / 1e6)
        .row("reply time p99 ms", HttperfFigures.percentile(sorted, 99) / 1e6)
        .row("reply time max ms", replies.max())
        .row("reply content avg B", tally.replySizes().stats().avg());
    for (int statusClass = 1; statusClass <= 5; statusClass++) {
      table = table.row("status " + statusClass + "xx", tally.statusClass(statusClass));
    }
    for (Map.Entry<String, Long> error : figures.errors().entrySet()) {
      table = table.row("errors " + error.getKey(), error.getValue());
    }
    return table.row("failed requests", tally.failedCount())
        .row("index build ms", indexBuild.millis())
        .row("index build total_rows", indexBuild.totalRows());
  }

  private static String number(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
