package couchbench.attachment;

import couchbench.attachment.UploadTally.Figures;
import couchbench.attachment.UploadTally.Key;
import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.Summary;
import couchbench.rounds.Rounds;
import couchbench.rounds.Spread;
import couchbench.rounds.StepRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The seed's figures from this run: for every size, the median and shortest upload time of each
 * method (bulk per request and per document), their ratios to raw, and a log-log chart of time
 * against size, one line per method; failures, by method and size, with their messages. A figure is the median of
 * one method's uploads at one size in one round; with several rounds, the page gives the median of the rounds'
 * figures with the smallest and largest beside it, and each round's own in a table of its own.
 */
public final class AttachmentSummary implements Summary<AttachmentFigures> {

  /** The figures that rest on less than the step-length rule a warning names before it says how many more. */
  private static final int SHORT_NAMED = 6;

  private final AttachmentPlan plan;

  private AttachmentSummary(AttachmentPlan plan) {
    this.plan = plan;
  }

  /**
   * @param plan the sizes and parameters: this injector's, or the whole run's for a merged one
   * @return the summary of its runs
   */
  public static AttachmentSummary of(AttachmentPlan plan) {
    return new AttachmentSummary(plan);
  }

  @Override
  public Class<AttachmentFigures> figuresType() {
    return AttachmentFigures.class;
  }

  @Override
  public AttachmentFigures merge(List<AttachmentFigures> injectors) {
    return AttachmentFigures.merge(injectors);
  }

  @Override
  public SummaryPage page(Results results, AttachmentFigures uploads) {
    Rounds rounds = plan.rounds();
    SummaryPage page =
        SummaryPage.titled(results.run().simulation() + ": upload time against attachment size")
            .line("Target: " + String.join("; ", results.run().targets()) + ".")
            .line("Run: " + plan.describeSweep() + (uploads.databases().size() > 1 ? ", databases " : ", database ")
                + String.join(", ", uploads.databases())
                + ". One virtual user sends every upload in turn, each to a new document; within a size the methods"
                + " take turns.")
            .line("raw: PUT /db/doc/att?rev=... with the bytes as the body, after creating the document"
                + " (not timed). base64: PUT /db/doc with the attachment inline in base64. multipart:"
                + " PUT /db/doc as multipart/related, the JSON part, then the bytes. bulk: POST"
                + " /db/_bulk_docs with " + plan.bulkDocs() + " documents, each with the attachment inline"
                + " in base64; per document = per request / " + plan.bulkDocs() + ".")
            .line("Time: from just before the request is sent to its whole reply, measured in the virtual"
                + " user with the JVM's nanosecond clock (Gatling's report shows the same requests in whole"
                + " milliseconds). An upload counts only when reading its document back (verify ...,"
                + " not timed) gives the source file's length and md5 digest.")
            .line("A figure (one method at one size" + (rounds.repeated() ? " in one round" : "") + ") is the"
                + " median of its uploads, and should rest on at least " + StepRule.REQUESTS_PER_USER
                + " uploads or " + StepRule.SECONDS + " s of uploading: " + plan.describeUploads()
                + "; 'uploads planned' counts the " + plan.repeat() + " each method makes at least.")
            .line("Rounds: " + rounds.describe() + (rounds.repeated()
                ? "; each round sweeps every size (request names end with 'round r'); min and max: the smallest"
                    + " and largest round's figure." : "."));
    if (results.run().merged()) {
      page = page.line("Merged from " + results.run().injectorCount() + " injectors uploading at the same time, one user each,"
          + " each into a database of its own and its share of the " + plan.repeat() + " uploads per method and size"
          + (plan.uploadsOn() ? " (and on past it, by the step-length rule, on its own)" : "") + ": a figure is the"
          + " median of all the injectors' uploads of one method at one size in one round; uploads verified and"
          + " planned, and failures, add. Uploads sent at once by several users are not a lone user's: compare"
          + " these times with a run of one injector before reading them as the server's.");
    }
    if (uploads.loginRefused()) {
      page = page.warning("CouchDB refused the login during the run, which stopped there: sizes after that"
          + " are missing.");
    }
    Table failures = rounds.repeated()
        ? Table.of("method", "size", "round", "failure", "uploads", "Gatling's errors for the upload request")
        : Table.of("method", "size", "failure", "uploads", "Gatling's errors for the upload request");
    List<String> shortFigures = new ArrayList<>();
    for (int round : rounds.numbers()) {
      for (int exponent : plan.exponents()) {
        for (AttachmentMethod method : plan.methods(exponent)) {
          Figures figures = uploads.figures(new Key(method, exponent, round));
          String name = plan.requestName(method, exponent, round);
          for (Map.Entry<String, Integer> failure : figures.failures().entrySet()) {
            String errors = results.failures(name).entrySet().stream()
                .map(error -> error.getKey() + " (" + error.getValue() + ")").collect(Collectors.joining("; "));
            String size = AttachmentPlan.sizeName(exponent);
            failures = rounds.repeated()
                ? failures.row(method.label(), size, round, failure.getKey(), failure.getValue(), errors)
                : failures.row(method.label(), size, failure.getKey(), failure.getValue(), errors);
            page = page.warning(name + " failed: " + failure.getKey());
          }
          if (figures.failures().isEmpty() && figures.verified() > 0 && !figures.restsOnEnough()) {
            shortFigures.add(name + " (" + figures.verified() + " upload(s), " + seconds(figures.uploading()) + " s)");
          }
        }
      }
    }
    if (!shortFigures.isEmpty()) {
      page = page.warning(shortFigures.size() + " figure(s) rest on fewer than " + StepRule.REQUESTS_PER_USER
          + " uploads and less than " + StepRule.SECONDS + " s of uploading (-Drepeat=" + plan.repeat()
          + "; without -Drepeat each figure uploads on until it has one or the other): "
          + String.join(", ", shortFigures.subList(0, Math.min(SHORT_NAMED, shortFigures.size())))
          + (shortFigures.size() > SHORT_NAMED ? " and " + (shortFigures.size() - SHORT_NAMED) + " more" : "")
          + " (see 'each round's figures').");
    }
    page = page.text("median upload time in seconds, laid out like the seed's table", seedTable(plan, uploads))
        .table("upload times by size", rounds.repeated() ? timeSpreads(plan, uploads) : times(plan, uploads))
        .table("ratios to raw", ratios(plan, uploads))
        .table("each round's figures", byRound(plan, uploads));
    if (!failures.rows().isEmpty()) {
      page = page.table("failed uploads", failures);
    }
    return page.chart("upload time against size", chart(plan, uploads));
  }

  /**
   * The seed's table, for the console and the page: size and median seconds per method, a dash where there is none;
   * with several rounds, the median of the rounds' medians.
   *
   * @param plan the sizes and parameters
   * @param uploads what the uploads did
   * @return the lines, header first
   */
  public static List<String> seedTable(AttachmentPlan plan, AttachmentFigures uploads) {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "%-3s %14s %14s %14s %14s %14s", "n", "raw", "base64", "multipart",
        "bulk/request", "bulk/document"));
    for (int exponent : plan.exponents()) {
      Double bulk = median(spread(plan, uploads, AttachmentMethod.BULK, exponent));
      lines.add(String.format(Locale.ROOT, "%-3d %14s %14s %14s %14s %14s", exponent,
          seconds(median(spread(plan, uploads, AttachmentMethod.RAW, exponent))),
          seconds(median(spread(plan, uploads, AttachmentMethod.BASE64, exponent))),
          seconds(median(spread(plan, uploads, AttachmentMethod.MULTIPART, exponent))),
          seconds(bulk), seconds(perDocument(bulk, plan))));
    }
    return lines;
  }

  /** One round: each method's median and shortest upload, as the page has always shown them. */
  private static Table times(AttachmentPlan plan, AttachmentFigures uploads) {
    Table table = Table.of("n", "bytes", "raw median s", "raw min s", "base64 median s", "base64 min s",
        "multipart median s", "multipart min s", "bulk median s per request", "bulk min s per request",
        "bulk median s per document", "uploads verified", "uploads planned");
    for (int exponent : plan.exponents()) {
      Figures raw = uploads.figures(new Key(AttachmentMethod.RAW, exponent, 1));
      Figures base64 = uploads.figures(new Key(AttachmentMethod.BASE64, exponent, 1));
      Figures multipart = uploads.figures(new Key(AttachmentMethod.MULTIPART, exponent, 1));
      Figures bulk = uploads.figures(new Key(AttachmentMethod.BULK, exponent, 1));
      table = table.row(exponent, AttachmentPlan.size(exponent), raw.median(), raw.min(), base64.median(),
          base64.min(), multipart.median(), multipart.min(), bulk.median(), bulk.min(),
          perDocument(bulk.median(), plan), verified(plan, uploads, exponent), planned(plan, uploads, exponent));
    }
    return table;
  }

  /** Several rounds: each method's median of the rounds' medians, with the smallest and largest round's. */
  private static Table timeSpreads(AttachmentPlan plan, AttachmentFigures uploads) {
    List<String> columns = new ArrayList<>(List.of("n", "bytes"));
    for (AttachmentMethod method : AttachmentMethod.values()) {
      String per = method == AttachmentMethod.BULK ? " per request" : "";
      columns.addAll(List.of(method.label() + " median s" + per, method.label() + " min s" + per,
          method.label() + " max s" + per));
    }
    columns.addAll(List.of("bulk median s per document", "bulk min s per document", "bulk max s per document",
        "uploads verified", "uploads planned"));
    Table table = Table.of(columns.toArray(String[]::new));
    for (int exponent : plan.exponents()) {
      List<Object> row = new ArrayList<>(List.of(exponent, AttachmentPlan.size(exponent)));
      for (AttachmentMethod method : AttachmentMethod.values()) {
        row.addAll(cells(spread(plan, uploads, method, exponent), 1));
      }
      row.addAll(cells(spread(plan, uploads, AttachmentMethod.BULK, exponent), plan.bulkDocs()));
      row.add(verified(plan, uploads, exponent));
      row.add(planned(plan, uploads, exponent));
      table = table.row(row.toArray());
    }
    return table;
  }

  /** The ratios of the medians to raw's; with several rounds, the median of each round's ratio, and their range. */
  private static Table ratios(AttachmentPlan plan, AttachmentFigures uploads) {
    List<String> ratios = List.of("base64 / raw", "multipart / raw", "bulk per document / raw");
    List<String> columns = new ArrayList<>(List.of("n"));
    for (String ratio : ratios) {
      columns.addAll(plan.rounds().repeated() ? List.of(ratio, ratio + " min", ratio + " max") : List.of(ratio));
    }
    Table table = Table.of(columns.toArray(String[]::new));
    for (int exponent : plan.exponents()) {
      List<Object> row = new ArrayList<>(List.of(exponent));
      for (AttachmentMethod method : List.of(AttachmentMethod.BASE64, AttachmentMethod.MULTIPART,
          AttachmentMethod.BULK)) {
        List<Double> byRound = new ArrayList<>();
        for (int round : plan.rounds().numbers()) {
          Double raw = uploads.figures(new Key(AttachmentMethod.RAW, exponent, round)).median();
          Double time = uploads.figures(new Key(method, exponent, round)).median();
          Double ratio = ratio(method == AttachmentMethod.BULK ? perDocument(time, plan) : time, raw);
          if (ratio != null) {
            byRound.add(ratio);
          }
        }
        Spread spread = byRound.isEmpty() ? null : Spread.of(byRound);
        row.addAll(plan.rounds().repeated() ? cells(spread, 1) : Arrays.asList(median(spread)));
      }
      table = table.row(row.toArray());
    }
    return table;
  }

  /** Every figure of every round, with what it rests on. */
  private static Table byRound(AttachmentPlan plan, AttachmentFigures uploads) {
    Table table = Table.of("n", "method", "round", "median s", "min s", "uploads verified", "uploading s",
        "rests on " + StepRule.REQUESTS_PER_USER + " uploads or " + StepRule.SECONDS + " s");
    for (int round : plan.rounds().numbers()) {
      for (int exponent : plan.exponents()) {
        for (AttachmentMethod method : plan.methods(exponent)) {
          Figures figures = uploads.figures(new Key(method, exponent, round));
          table = table.row(exponent, method.label(), round, figures.median(), figures.min(), figures.verified(),
              figures.uploading(), figures.restsOnEnough() ? "yes" : "no");
        }
      }
    }
    return table;
  }

  private static LineChart chart(AttachmentPlan plan, AttachmentFigures uploads) {
    boolean repeated = plan.rounds().repeated();
    LineChart chart = LineChart.titled("Median upload time against attachment size"
            + (repeated ? " (median of " + plan.rounds().count() + " rounds, bars: their range)" : ""))
        .axes("attachment size (bytes)", "median upload time (s)")
        .logX()
        .logY();
    for (AttachmentMethod method : AttachmentMethod.values()) {
      int docs = method == AttachmentMethod.BULK ? plan.bulkDocs() : 1;
      List<Number> sizes = new ArrayList<>();
      List<Spread> times = new ArrayList<>();
      for (int exponent : plan.exponents()) {
        Spread spread = spread(plan, uploads, method, exponent);
        if (spread != null) {
          sizes.add(AttachmentPlan.size(exponent));
          times.add(new Spread(spread.median() / docs, spread.min() / docs, spread.max() / docs, spread.rounds()));
        }
      }
      String name = method == AttachmentMethod.BULK ? "bulk (per document)" : method.label();
      chart = repeated ? chart.spreadSeries(name, sizes, times)
          : chart.series(name, sizes, times.stream().map(Spread::median).toList());
    }
    return chart;
  }

  /**
   * @return the rounds' medians of one method at one size: their median and range, over the rounds that have one;
   *     null when none has
   */
  private static Spread spread(AttachmentPlan plan, AttachmentFigures uploads, AttachmentMethod method, int exponent) {
    List<Double> medians = plan.rounds().numbers().stream()
        .map(round -> uploads.figures(new Key(method, exponent, round)).median())
        .filter(Objects::nonNull)
        .toList();
    return medians.isEmpty() ? null : Spread.of(medians);
  }

  /** @return a spread's median, min and max divided by a number of documents; empty cells for none */
  private static List<Object> cells(Spread spread, int docs) {
    return spread == null ? Arrays.asList(null, null, null)
        : List.of(spread.median() / docs, spread.min() / docs, spread.max() / docs);
  }

  private static int verified(AttachmentPlan plan, AttachmentFigures uploads, int exponent) {
    return keys(plan, exponent).stream().mapToInt(key -> uploads.figures(key).verified()).sum();
  }

  private static int planned(AttachmentPlan plan, AttachmentFigures uploads, int exponent) {
    return keys(plan, exponent).stream().mapToInt(key -> uploads.figures(key).planned()).sum();
  }

  /** @return every method's key at a size, in every round */
  private static List<Key> keys(AttachmentPlan plan, int exponent) {
    return plan.rounds().numbers().stream()
        .flatMap(round -> Arrays.stream(AttachmentMethod.values()).map(method -> new Key(method, exponent, round)))
        .toList();
  }

  private static Double median(Spread spread) {
    return spread == null ? null : spread.median();
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
