package couchbench.attachment;

import couchbench.attachment.UploadTally.Figures;
import couchbench.attachment.UploadTally.Key;
import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.RunLog;
import couchbench.targets.CouchTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The seed's figures from this run: for every size, the median and shortest upload time of each
 * method (bulk per request and per document), their ratios to raw, and a log-log chart of time
 * against size, one line per method; failures, by method and size, with their messages.
 */
public final class AttachmentSummary {

  private AttachmentSummary() {}

  /**
   * The summary page of a finished run; give it to {@link couchbench.results.RunOutput#finish}.
   *
   * @param simulation the simulation's name, for the title
   * @param plan the sizes and parameters
   * @param target the server the run wrote to
   * @param tally what the uploads did
   * @param log what the run's simulation.log says (Gatling's failure messages of each request); empty when it
   *     could not be read
   * @param loginRefused whether CouchDB refused the login during the run (CouchHttp.loginWasRefused())
   * @return the page, ready to write beside Gatling's report
   */
  public static SummaryPage page(String simulation, AttachmentPlan plan, CouchTarget target, UploadTally tally,
      Optional<RunLog> log, boolean loginRefused) {
    Function<String, Map<String, Long>> gatlingErrors = name -> log.map(run -> run.failures(name)).orElse(Map.of());
    SummaryPage page =
        SummaryPage.titled(simulation + ": upload time against attachment size")
            .line("Target: " + target.describe() + ".")
            .line("Run: " + plan.describe() + ". One virtual user sends every upload in turn, each to a"
                + " new document; within a size the methods take turns.")
            .line("raw: PUT /db/doc/att?rev=... with the bytes as the body, after creating the document"
                + " (not timed). base64: PUT /db/doc with the attachment inline in base64. multipart:"
                + " PUT /db/doc as multipart/related, the JSON part, then the bytes. bulk: POST"
                + " /db/_bulk_docs with " + plan.bulkDocs() + " documents, each with the attachment inline"
                + " in base64; per document = per request / " + plan.bulkDocs() + ".")
            .line("Time: from just before the request is sent to its whole reply, measured in the virtual"
                + " user with the JVM's nanosecond clock (Gatling's report shows the same requests in whole"
                + " milliseconds). An upload counts only when reading its document back (verify ...,"
                + " not timed) gives the source file's length and md5 digest.");
    if (loginRefused) {
      page = page.warning("CouchDB refused the login during the run, which stopped there: sizes after that"
          + " are missing.");
    }
    Table failures = Table.of("method", "size", "failure", "uploads", "Gatling's errors for the upload request");
    for (int exponent : plan.exponents()) {
      for (AttachmentMethod method : plan.methods(exponent)) {
        for (Map.Entry<String, Integer> failure : tally.figures(new Key(method, exponent)).failures().entrySet()) {
          String errors = gatlingErrors.apply(method.requestName(exponent)).entrySet().stream()
              .map(error -> error.getKey() + " (" + error.getValue() + ")").collect(Collectors.joining("; "));
          failures = failures.row(method.label(), AttachmentPlan.sizeName(exponent), failure.getKey(),
              failure.getValue(), errors);
          page = page.warning(method.requestName(exponent) + " failed: " + failure.getKey());
        }
      }
    }
    page = page.text("median upload time in seconds, laid out like the seed's table", seedTable(plan, tally))
        .table("upload times by size", times(plan, tally))
        .table("ratios to raw", ratios(plan, tally));
    if (!failures.rows().isEmpty()) {
      page = page.table("failed uploads", failures);
    }
    LineChart chart = chart(plan, tally);
    return page.chart("upload time against size", chart)
        .link("Gatling's report for this run", "index.html");
  }

  /**
   * The seed's table, for the console and the page: size and median seconds per method, a dash where there is none.
   *
   * @param plan the sizes and parameters
   * @param tally what the uploads did
   * @return the lines, header first
   */
  public static List<String> seedTable(AttachmentPlan plan, UploadTally tally) {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "%-3s %14s %14s %14s %14s %14s", "n", "raw", "base64", "multipart",
        "bulk/request", "bulk/document"));
    for (int exponent : plan.exponents()) {
      Figures bulk = tally.figures(new Key(AttachmentMethod.BULK, exponent));
      lines.add(String.format(Locale.ROOT, "%-3d %14s %14s %14s %14s %14s", exponent,
          seconds(median(tally, AttachmentMethod.RAW, exponent)),
          seconds(median(tally, AttachmentMethod.BASE64, exponent)),
          seconds(median(tally, AttachmentMethod.MULTIPART, exponent)),
          seconds(bulk.median()), seconds(perDocument(bulk.median(), plan))));
    }
    return lines;
  }

  private static Table times(AttachmentPlan plan, UploadTally tally) {
    Table table = Table.of("n", "bytes", "raw median s", "raw min s", "base64 median s", "base64 min s",
        "multipart median s", "multipart min s", "bulk median s per request", "bulk min s per request",
        "bulk median s per document", "uploads verified", "uploads planned");
    for (int exponent : plan.exponents()) {
      Figures raw = tally.figures(new Key(AttachmentMethod.RAW, exponent));
      Figures base64 = tally.figures(new Key(AttachmentMethod.BASE64, exponent));
      Figures multipart = tally.figures(new Key(AttachmentMethod.MULTIPART, exponent));
      Figures bulk = tally.figures(new Key(AttachmentMethod.BULK, exponent));
      int verified = raw.verified() + base64.verified() + multipart.verified() + bulk.verified();
      int planned = raw.planned() + base64.planned() + multipart.planned() + bulk.planned();
      table = table.row(exponent, AttachmentPlan.size(exponent), raw.median(), raw.min(), base64.median(),
          base64.min(), multipart.median(), multipart.min(), bulk.median(), bulk.min(),
          perDocument(bulk.median(), plan), verified, planned);
    }
    return table;
  }

  private static Table ratios(AttachmentPlan plan, UploadTally tally) {
    Table table = Table.of("n", "base64 / raw", "multipart / raw", "bulk per document / raw");
    for (int exponent : plan.exponents()) {
      Double raw = median(tally, AttachmentMethod.RAW, exponent);
      table = table.row(exponent, ratio(median(tally, AttachmentMethod.BASE64, exponent), raw),
          ratio(median(tally, AttachmentMethod.MULTIPART, exponent), raw),
          ratio(perDocument(median(tally, AttachmentMethod.BULK, exponent), plan), raw));
    }
    return table;
  }

  private static LineChart chart(AttachmentPlan plan, UploadTally tally) {
    LineChart chart = LineChart.titled("Median upload time against attachment size")
        .axes("attachment size (bytes)", "median upload time (s)")
        .logX()
        .logY();
    for (AttachmentMethod method : AttachmentMethod.values()) {
      List<Number> sizes = new ArrayList<>();
      List<Number> times = new ArrayList<>();
      for (int exponent : plan.exponents()) {
        Double median = median(tally, method, exponent);
        if (median != null) {
          sizes.add(AttachmentPlan.size(exponent));
          times.add(method == AttachmentMethod.BULK ? perDocument(median, plan) : median);
        }
      }
      chart = chart.series(method == AttachmentMethod.BULK ? "bulk (per document)" : method.label(), sizes, times);
    }
    return chart;
  }

  private static Double median(UploadTally tally, AttachmentMethod method, int exponent) {
    return tally.figures(new Key(method, exponent)).median();
  }

  private static Double perDocument(Double seconds, AttachmentPlan plan) {
    return seconds == null ? null : seconds / plan.bulkDocs();
  }

  private static Double ratio(Double time, Double raw) {
    return time == null || raw == null || raw == 0 ? null : time / raw;
  }

  private static String seconds(Double value) {
    return value == null ? "-" : String.format(Locale.ROOT, "%.6f", value);
  }
}
