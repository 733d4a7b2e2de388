package couchbench.attachment;

import couchbench.rounds.Rounds;
import couchbench.rounds.StepRule;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The AttachmentUpload run as parameters say: attachments of 10^min..10^max bytes, each sent at least
 * {@code repeat} times by every method, one upload after the other, into a fresh database; the whole sweep of sizes
 * {@code rounds} times.
 *
 * <p>The step-length rule: a figure (one method at one size in one round, the median of its uploads) should rest on
 * at least {@link StepRule#REQUESTS_PER_USER} uploads or {@link StepRule#SECONDS} s of uploading. Without {@code -Drepeat}, each
 * figure makes its 3 uploads, then uploads on while it rests on less than that, up to {@link StepRule#REQUESTS_PER_USER}: the
 * small sizes get 8 uploads for a fraction of a second, the large ones stop at 3 once those took 2 s. An explicit
 * {@code -Drepeat} is taken as it is, and the page says which figures rest on less.
 *
 * @param minExponent the smallest size is 10^minExponent bytes
 * @param maxExponent the largest size is 10^maxExponent bytes
 * @param repeat uploads per method and size at least, each a new document (this injector's share of -Drepeat)
 * @param uploadsOn true without -Drepeat: a figure uploads on past {@code repeat} while it rests on less than the rule
 * @param rounds how many times the whole sweep of sizes runs, one after the other
 * @param bulkDocs documents per {@code _bulk_docs} request
 * @param bulkMaxBytes the bulk method runs for a size only while bulkDocs x size stays within this
 * @param timeout how long one request may take
 * @param dataDir where the attachments and request bodies are generated and reused
 * @param database the run's own database, created fresh
 * @param keep true to leave the database in place after the run
 */
public record AttachmentPlan(
    int minExponent, int maxExponent, int repeat, boolean uploadsOn, Rounds rounds, int bulkDocs, long bulkMaxBytes,
    Duration timeout, Path dataDir, String database, boolean keep) {

  /** Uploads per method and size without -Drepeat, before the step-length rule adds any. */
  public static final int DEFAULT_REPEAT = 3;

  /** The largest exponent: 10^9 bytes, the seed's largest attachment. */
  public static final int MAX_EXPONENT = 9;

  /** Attachment bytes one {@code _bulk_docs} request may carry by default (see docs/attachments.md). */
  public static final int DEFAULT_BULK_MAX_BYTES = 100_000_000;

  /** Where the data generator writes by default, relative to the project root. */
  public static final Path DEFAULT_DATA_DIR = Path.of("data", "attachments");

  /**
   * One upload of the run.
   *
   * @param method how it is sent
   * @param exponent the attachment has 10^exponent bytes
   * @param repetition 1 to {@link #mostUploads()}
   * @param round the round of the sweep, 1 to rounds
   * @param whileShort true when it runs only while its figure rests on less than the step-length rule (past repeat)
   */
  public record Upload(AttachmentMethod method, int exponent, int repetition, int round, boolean whileShort) {

    /** @return the document id of this upload, e.g. raw-6-1 or raw-6-1-round2 (bulk documents get the server's) */
    public String docId() {
      return method.label() + "-" + exponent + "-" + repetition + (round > 1 ? "-round" + round : "");
    }
  }

  /**
   * Reads the plan from the run's settings.
   *
   * @param settings minExponent, maxExponent, repeat, rounds, bulkDocs, bulkMaxBytes, timeout, dataDir, keep,
   *     injector (its share of the uploads per method and size, into a database of its own)
   * @return the plan
   * @throws SettingsException for a value out of range, with the fix
   */
  public static AttachmentPlan from(Settings settings) {
    int max = exponent(settings, "maxExponent", 7, 1);
    int min = exponent(settings, "minExponent", 1, 1);
    if (min > max) {
      throw new SettingsException("-DminExponent=" + min + " is larger than -DmaxExponent=" + max
          + " (expected minExponent <= maxExponent)");
    }
    InjectorShare injector = InjectorShare.from(settings);
    String run = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss")) + injector.databaseSuffix();
    boolean uploadsOn = settings.get("repeat", "").isEmpty();
    return new AttachmentPlan(min, max, injector.atLeastOne("repeat", settings.intValue("repeat", DEFAULT_REPEAT, 1)),
        uploadsOn, Rounds.from(settings), settings.intValue("bulkDocs", 10, 1),
        settings.intValue("bulkMaxBytes", DEFAULT_BULK_MAX_BYTES, 1),
        Duration.ofSeconds(settings.intValue("timeout", 600, 1)),
        Path.of(settings.get("dataDir", DEFAULT_DATA_DIR.toString())),
        "couchbench_attachment_" + run, settings.booleanValue("keep", false));
  }

  /**
   * The attachment size of an exponent.
   *
   * @param exponent 0 to {@link #MAX_EXPONENT}
   * @return 10^exponent
   */
  public static long size(int exponent) {
    long size = 1;
    for (int i = 0; i < exponent; i++) {
      size *= 10;
    }
    return size;
  }

  /**
   * How sizes are named in requests and tables.
   *
   * @param exponent the size is 10^exponent bytes
   * @return e.g. {@code 10^6}
   */
  public static String sizeName(int exponent) {
    return "10^" + exponent;
  }

  /**
   * An upload's request name in Gatling's report, each round's apart.
   *
   * @param method how it is sent
   * @param exponent the size is 10^exponent bytes
   * @param round the round, 1 to rounds
   * @return e.g. {@code raw 10^6}, or {@code raw 10^6 round 2} with several rounds
   */
  public String requestName(AttachmentMethod method, int exponent, int round) {
    return rounds.name(method.requestName(exponent), round);
  }

  /**
   * @param upload one upload of the plan
   * @return its request name, as {@link #requestName(AttachmentMethod, int, int)}
   */
  public String requestName(Upload upload) {
    return requestName(upload.method(), upload.exponent(), upload.round());
  }

  /**
   * @param upload one upload of the plan
   * @return the name of the request that reads it back, e.g. {@code verify raw 10^6 round 2}
   */
  public String verifyName(Upload upload) {
    return rounds.name(upload.method().verifyName(upload.exponent()), upload.round());
  }

  /** @return the exponents of the run, smallest first */
  public List<Integer> exponents() {
    return IntStream.rangeClosed(minExponent, maxExponent).boxed().toList();
  }

  /**
   * Whether the bulk method runs at a size: its request would carry bulkDocs attachments.
   *
   * @param exponent the size is 10^exponent bytes
   * @return true while bulkDocs x 10^exponent is within bulkMaxBytes
   */
  public boolean bulkRuns(int exponent) {
    return bulkDocs * size(exponent) <= bulkMaxBytes;
  }

  /**
   * The methods that run at a size.
   *
   * @param exponent the size is 10^exponent bytes
   * @return raw, base64, multipart, and bulk when within its cap
   */
  public List<AttachmentMethod> methods(int exponent) {
    List<AttachmentMethod> methods = new ArrayList<>(List.of(AttachmentMethod.values()));
    if (!bulkRuns(exponent)) {
      methods.remove(AttachmentMethod.BULK);
    }
    return List.copyOf(methods);
  }

  /** @return the most uploads a method makes at a size in a round: repeat, or the rule's count without -Drepeat */
  public int mostUploads() {
    return uploadsOn ? Math.max(repeat, StepRule.REQUESTS_PER_USER) : repeat;
  }

  /**
   * Every upload that may run, in the order it runs: round by round, each the whole sweep; size by size; within a
   * size, the methods take turns, so that a machine that slows down or speeds up during a size weighs on every method
   * alike.
   *
   * @return the uploads
   */
  public List<Upload> uploads() {
    return rounds.numbers().stream()
        .flatMap(round -> exponents().stream().flatMap(exponent -> uploads(exponent, round).stream()))
        .toList();
  }

  /**
   * The uploads of one size in one round, in the order they run: {@link #mostUploads()} turns, each of every method
   * in turn; those past {@code repeat} only while their figure rests on less than the step-length rule.
   *
   * @param exponent the size is 10^exponent bytes
   * @param round the round, 1 to rounds
   * @return the uploads
   */
  public List<Upload> uploads(int exponent, int round) {
    List<Upload> uploads = new ArrayList<>();
    for (int repetition = 1; repetition <= mostUploads(); repetition++) {
      for (AttachmentMethod method : methods(exponent)) {
        uploads.add(new Upload(method, exponent, repetition, round, repetition > repeat));
      }
    }
    return List.copyOf(uploads);
  }

  /**
   * The step-length rule.
   *
   * @param uploads the uploads a figure rests on
   * @param seconds their time together
   * @return true when they are at least {@link StepRule#REQUESTS_PER_USER} or took at least {@link StepRule#SECONDS}
   */
  public static boolean restsOnEnough(int uploads, double seconds) {
    return uploads >= StepRule.REQUESTS_PER_USER || seconds >= StepRule.SECONDS;
  }

  /** @return how many uploads each figure rests on, in words, for the console and the summary */
  public String describeUploads() {
    return uploadsOn && repeat < StepRule.REQUESTS_PER_USER
        ? repeat + " to " + StepRule.REQUESTS_PER_USER + " upload(s) per method and size: " + repeat + ", then on while they took"
            + " less than " + StepRule.SECONDS + " s"
        : repeat + " upload(s) per method and size";
  }

  /** @return the parameters in one line, for the console */
  public String describe() {
    return describeSweep() + ", database " + database;
  }

  /** @return the parameters but the database, which a merged run has one of per injector, for the summary */
  public String describeSweep() {
    return "sizes " + sizeName(minExponent) + ".." + sizeName(maxExponent) + " bytes, " + describeUploads()
        + (rounds.repeated() ? ", the sweep " + rounds.count() + " times" : "") + ", bulk: " + bulkDocs
        + " documents per request while " + bulkDocs + " x size <= " + bulkMaxBytes + " bytes";
  }

  private static int exponent(Settings settings, String name, int defaultValue, int min) {
    int value = settings.intValue(name, defaultValue, min);
    if (value > MAX_EXPONENT) {
      throw new SettingsException("-D" + name + "=" + value + " is too large (expected " + min + ".."
          + MAX_EXPONENT + ": sizes are 10^n bytes, up to the seed's 10^9)");
    }
    return value;
  }
}
