package couchbench.attachment;

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
 * The AttachmentUpload run as parameters say: attachments of 10^min..10^max bytes, each sent
 * {@code repeat} times by every method, one upload after the other, into a fresh database.
 *
 * @param minExponent the smallest size is 10^minExponent bytes
 * @param maxExponent the largest size is 10^maxExponent bytes
 * @param repeat uploads per method and size, each a new document (this injector's share of -Drepeat)
 * @param bulkDocs documents per {@code _bulk_docs} request
 * @param bulkMaxBytes the bulk method runs for a size only while bulkDocs x size stays within this
 * @param timeout how long one request may take
 * @param dataDir where the attachments and request bodies are generated and reused
 * @param database the run's own database, created fresh
 * @param keep true to leave the database in place after the run
 */
public record AttachmentPlan(
    int minExponent, int maxExponent, int repeat, int bulkDocs, long bulkMaxBytes, Duration timeout,
    Path dataDir, String database, boolean keep) {

  /** The largest exponent: 10^9 bytes, the seed's largest attachment. */
  public static final int MAX_EXPONENT = 9;

  /** Attachment bytes one {@code _bulk_docs} request may carry by default (see README). */
  public static final int DEFAULT_BULK_MAX_BYTES = 100_000_000;

  /** Where the data generator writes by default, relative to the project root. */
  public static final Path DEFAULT_DATA_DIR = Path.of("data", "attachments");

  /**
   * One upload of the run.
   *
   * @param method how it is sent
   * @param exponent the attachment has 10^exponent bytes
   * @param repetition 1 to repeat
   */
  public record Upload(AttachmentMethod method, int exponent, int repetition) {

    /** @return the document id of this upload (bulk documents get theirs from the server) */
    public String docId() {
      return method.label() + "-" + exponent + "-" + repetition;
    }
  }

  /**
   * Reads the plan from the run's settings.
   *
   * @param settings minExponent, maxExponent, repeat, bulkDocs, bulkMaxBytes, timeout, dataDir, keep, injector (its
   *     share of the uploads per method and size, into a database of its own)
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
    return new AttachmentPlan(min, max, injector.atLeastOne("repeat", settings.intValue("repeat", 3, 1)),
        settings.intValue("bulkDocs", 10, 1),
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

  /**
   * Every upload in the order it runs: size by size; within a size, the methods take turns, so that
   * a machine that slows down or speeds up during a size weighs on every method alike.
   *
   * @return the uploads
   */
  public List<Upload> uploads() {
    return exponents().stream().flatMap(exponent -> uploads(exponent).stream()).toList();
  }

  /**
   * The uploads of one size, in the order they run: {@code repeat} rounds, each of every method in turn.
   *
   * @param exponent the size is 10^exponent bytes
   * @return the uploads
   */
  public List<Upload> uploads(int exponent) {
    List<Upload> uploads = new ArrayList<>();
    for (int repetition = 1; repetition <= repeat; repetition++) {
      for (AttachmentMethod method : methods(exponent)) {
        uploads.add(new Upload(method, exponent, repetition));
      }
    }
    return List.copyOf(uploads);
  }

  /** @return the parameters in one line, for the console and the summary */
  public String describe() {
    return "sizes " + sizeName(minExponent) + ".." + sizeName(maxExponent) + " bytes, " + repeat
        + " upload(s) per method and size, bulk: " + bulkDocs + " documents per request while "
        + bulkDocs + " x size <= " + bulkMaxBytes + " bytes, database " + database;
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
