package couchbench.viewquery;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.Summary;
import couchbench.rounds.Rounds;
import couchbench.rounds.Spread;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * After a ViewQuery run: httperf's figures from the run's own records, written beside Gatling's report with the index
 * build, the httperf command that does the same, and how each figure was measured. With several rounds, each figure
 * is the median of the rounds' with their range, and each round's figures are in a table of their own. The page is
 * built from results.json alone (the connections' samples under {@code figures}, Gatling's failure messages in the
 * entries), so a merged run of several injectors gets the same page, of all their connections together.
 */
public final class ViewQuerySummary implements Summary<ViewQueryFigures> {

  private final ViewQueryPlan plan;

  private ViewQuerySummary(ViewQueryPlan plan) {
    this.plan = plan;
  }

  /**
   * @param plan the run's parameters: this injector's, or the whole run's for a merged one
   * @return the summary of its runs
   */
  public static ViewQuerySummary of(ViewQueryPlan plan) {
    return new ViewQuerySummary(plan);
  }

  @Override
  public Class<ViewQueryFigures> figuresType() {
    return ViewQueryFigures.class;
  }

  @Override
  public ViewQueryFigures merge(List<ViewQueryFigures> injectors) {
    return ViewQueryFigures.merge(injectors);
  }

  /**
   * What the console shows at the end, from the live figures: Gatling's failure messages are not known yet, so a
   * request without a reply counts as "other" here and a line says where its kind is.
   *
   * @param plan the run's parameters, with its rounds
   * @param figures the finished load's
   * @return httperf's lines; with several rounds, each round's, each line starting with its round
   */
  public static List<String> console(ViewQueryPlan plan, ViewQueryFigures figures) {
    List<HttperfFigures> rounds = figures.rounds().stream()
        .map(round -> new HttperfFigures(round, ErrorKinds.count(round.unanswered(), Map.of()), 1))
        .toList();
    List<String> lines = new ArrayList<>();
    if (!plan.rounds().repeated()) {
      lines.addAll(rounds.get(0).console());
    } else {
      for (int round : plan.rounds().numbers()) {
        rounds.get(round - 1).console().forEach(line -> lines.add("round " + round + ": " + line));
      }
    }
    if (figures.rounds().stream().anyMatch(round -> round.unanswered() > 0)) {
      lines.add("Errors: the requests without a reply count as other here; summary.html sorts them by kind, from"
          + " Gatling's failure messages");
    }
    return lines;
  }

  @Override
  public SummaryPage page(Results results, ViewQueryFigures figures) {
    Rounds rounds = plan.rounds();
    IndexBuild indexBuild = figures.indexBuild();
    int injectors = results.run().injectorCount();
    boolean merged = results.run().merged();
    // Gatling's failure messages sort the requests without a reply into httperf's kinds.
    List<HttperfFigures> httperf = rounds.numbers().stream().map(round -> {
      ConnFigures tally = figures.rounds().get(round - 1);
      return new HttperfFigures(tally, ErrorKinds.count(tally.unanswered(),
          results.failures(plan.requestName(round))), injectors);
    }).toList();
    List<ConnFigures> tallies = figures.rounds();
    SummaryPage page = SummaryPage.titled(results.run().simulation() + ": httperf's figures for GET " + plan.path())
        .line("Target: " + String.join("; ", results.run().targets()) + ".")
        .line("The same load with httperf: " + httperfCommand(plan, figures.server()) + (!plan.injector().alone()
            ? " (this injector's share: " + f("%.1f", plan.rate()) + " conn/s, " + plan.conns() + " connections)"
            : "") + ".")
        .line("Gatling injected " + plan.conns() + " users over " + plan.duration().toSeconds() + " s ("
            + f("%.1f", plan.effectiveRate()) + " new connections/s" + (merged ? ", " + injectors
            + " injectors together, each its share" : "") + "), each with its own connection and "
            + plan.callsPerConn() + " call(s); every reply checked: status 200, total_rows "
            + indexBuild.totalRows() + ".")
        .line(indexBuild.describe() + (merged ? " (injector 0's, which set the view up)" : "") + ".");
    if (merged) {
      page = page.line("Merged from " + injectors + " injectors: counts add, and every figure is of all"
          + " their connections together; test-duration, the rates and the reply rate's " + HttperfFigures
          .REPLY_RATE_WINDOW + " s windows run from the first connection's start on any injector to the last one's"
          + " end, on one clock; 'concurrent connections max' is the sum of the injectors' maxima, an upper bound,"
          + " since they need not have peaked at once; CPU time is the injectors' Gatling JVMs' added, one process"
          + " each.");
    }
    if (rounds.repeated()) {
      page = page.line("Rounds: " + rounds.describe() + ". Each round is the whole load above, one after the other;"
          + " the setup and the index build ran once, before round 1; request names end with 'round r'.");
    }
    if (figures.loginRefused()) {
      page = page.warning("CouchDB refused the login during the run, which stopped there.");
    }
    if (plan.lengthWarning().isPresent()) {
      page = page.warning(plan.lengthWarning().get() + ".");
    }
    long failed = tallies.stream().mapToLong(ConnFigures::failed).sum();
    if (failed > 0) {
      page = page.warning(failed + " requests failed (no reply, status other than 200, or"
          + " wrong total_rows): see Gatling's report for the messages.");
    }
    if (results.requests().isEmpty() && tallies.stream().anyMatch(tally -> tally.unanswered() > 0)) {
      page = page.warning("Gatling's simulation.log could not be read: errors are all counted as other.");
    }
    Optional<LineChart> replyRate = ViewQueryCharts.replyRate(tallies);
    page = replyRate.isPresent() ? page.chart("reply rate over the run", replyRate.get())
        : page.line("Reply rate over the run: no chart, since the load lasted less than one of httperf's "
            + HttperfFigures.REPLY_RATE_WINDOW + " s samples.");
    page = page.chart("connection times", ViewQueryCharts.connectionTimes(tallies));
    if (rounds.repeated()) {
      for (int round : rounds.numbers()) {
        HttperfFigures own = httperf.get(round - 1);
        List<String> lines = new ArrayList<>(own.lines());
        lines.add("");
        lines.add(own.replyTimeSpread());
        page = page.text("httperf's figures, round " + round, lines);
      }
    } else {
      page = page.text("httperf's figures", httperf.get(0).lines())
          .line(httperf.get(0).replyTimeSpread());
    }
    page = page.line("How these are measured: a connection is one virtual user; its time runs from the user's"
            + " first action to its last, after its last reply; Gatling closes the connection just after,"
            + " when the user ends. The reply time is taken around Gatling's HTTP action: from just before"
            + " the request is sent to the whole reply, so it is httperf's response and transfer times"
            + " together, and holds the connect time on a connection's first call (httperf's connect"
            + " figure is n/a here). Reply size is the body's length. Reply rate: replies in each full"
            + " 5 s window from the first connection's start, as httperf samples it. Errors: requests that"
            + " got no reply, sorted by Gatling's failure message. CPU time: the Gatling JVM's, from the first"
            + " connection's start to the last one's end.")
        .table("figures", rounds.repeated() ? spreads(httperf, indexBuild) : once(httperf.get(0), indexBuild));
    if (rounds.repeated()) {
      page = page.table("figures by round", byRound(httperf));
    }
    return page;
  }

  /**
   * The httperf command line that runs the same load.
   *
   * @param plan the parameters
   * @param server the server's scheme://host:port[/prefix]
   * @return e.g. {@code httperf --client=0/1 --server=127.0.0.1 --port=5984 --uri=/todo/_design/todo/_view/list ...}
   */
  public static String httperfCommand(ViewQueryPlan plan, String server) {
    URI uri = URI.create(server);
    int port = uri.getPort() > 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    String prefix = uri.getRawPath() == null ? "" : uri.getRawPath();
    return "httperf --client=" + plan.injector() + " --server=" + uri.getHost() + " --port=" + port
        + " --uri=" + prefix + plan.path() + " --rate=" + ViewQueryPlan.number(plan.totalRate())
        + " --num-conns=" + plan.totalConns() + " --num-calls=" + plan.callsPerConn();
  }

  /** One round: each figure's value. */
  private static Table once(HttperfFigures figures, IndexBuild indexBuild) {
    Table table = Table.of("figure", "value");
    for (Map.Entry<String, Number> figure : rows(figures).entrySet()) {
      table = table.row(figure.getKey(), figure.getValue());
    }
    return table.row("index build ms", indexBuild.millis())
        .row("index build total_rows", indexBuild.totalRows());
  }

  /** Several rounds: each figure's median of the rounds, with the smallest and largest; the index build once. */
  private static Table spreads(List<HttperfFigures> figures, IndexBuild indexBuild) {
    Map<String, List<Number>> byFigure = columns(figures);
    Table table = Table.of("figure", "median", "min", "max");
    for (Map.Entry<String, List<Number>> figure : byFigure.entrySet()) {
      Spread spread = Spread.of(figure.getValue());
      table = table.row(figure.getKey(), spread.median(), spread.min(), spread.max());
    }
    // Measured once, before round 1: a range of one.
    return table.row("index build ms", indexBuild.millis(), indexBuild.millis(), indexBuild.millis())
        .row("index build total_rows", indexBuild.totalRows(), indexBuild.totalRows(), indexBuild.totalRows());
  }

  /** Several rounds: each round's figures, a column per round. */
  private static Table byRound(List<HttperfFigures> figures) {
    List<String> columns = new ArrayList<>(List.of("figure"));
    for (int round = 1; round <= figures.size(); round++) {
      columns.add("round " + round);
    }
    Table table = Table.of(columns.toArray(String[]::new));
    for (Map.Entry<String, List<Number>> figure : columns(figures).entrySet()) {
      List<Object> row = new ArrayList<>(List.of(figure.getKey()));
      row.addAll(figure.getValue());
      table = table.row(row.toArray());
    }
    return table;
  }

  /** @return each figure's values, one per round, in the figures' order */
  private static Map<String, List<Number>> columns(List<HttperfFigures> figures) {
    Map<String, List<Number>> byFigure = new LinkedHashMap<>();
    for (HttperfFigures round : figures) {
      rows(round).forEach((name, value) -> byFigure.computeIfAbsent(name, k -> new ArrayList<>()).add(value));
    }
    return byFigure;
  }

  /** @return one round's figures by name, in the table's order */
  private static Map<String, Number> rows(HttperfFigures figures) {
    ConnFigures tally = figures.tally();
    Samples.Stats connections = tally.connectionMillis();
    Samples.Stats replies = tally.replyMillis();
    Samples.Stats rate = tally.replyRate(HttperfFigures.REPLY_RATE_WINDOW);
    Map<String, Number> rows = new LinkedHashMap<>();
    rows.put("connections", tally.connections());
    rows.put("requests", tally.requests());
    rows.put("replies", tally.replies());
    rows.put("test-duration s", tally.seconds());
    rows.put("connection rate conn/s", tally.seconds() > 0 ? tally.connections() / tally.seconds() : 0.0);
    rows.put("concurrent connections max", tally.mostOpen());
    rows.put("connection time min ms", connections.min());
    rows.put("connection time avg ms", connections.avg());
    rows.put("connection time max ms", connections.max());
    rows.put("connection time median ms", connections.median());
    rows.put("connection time stddev ms", connections.stddev());
    rows.put("request rate req/s", tally.seconds() > 0 ? tally.requests() / tally.seconds() : 0.0);
    rows.put("reply rate min", rate.min());
    rows.put("reply rate avg", rate.avg());
    rows.put("reply rate max", rate.max());
    rows.put("reply rate stddev", rate.stddev());
    rows.put("reply rate samples", rate.count());
    rows.put("reply time avg ms", replies.avg());
    rows.put("reply time median ms", replies.median());
    rows.put("reply time p95 ms", tally.replyPercentileMillis(95));
    rows.put("reply time p99 ms", tally.replyPercentileMillis(99));
    rows.put("reply time max ms", replies.max());
    rows.put("reply content avg B", tally.replySizes().avg());
    for (int statusClass = 1; statusClass <= 5; statusClass++) {
      rows.put("status " + statusClass + "xx", tally.statusClass(statusClass));
    }
    for (Map.Entry<String, Long> error : figures.errors().entrySet()) {
      rows.put("errors " + error.getKey(), error.getValue());
    }
    rows.put("failed requests", tally.failed());
    return rows;
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
