package couchbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads request counts from the index.html of a Gatling report: what a user reads in its table. */
public final class GatlingReport {

  /**
   * One request name's counts.
   *
   * @param total requests sent
   * @param ok requests that passed their checks
   * @param ko requests that failed
   */
  public record Counts(long total, long ok, long ko) {}

  private static final Pattern ROW =
      Pattern.compile(
          "<tr id=\"(?:req|group)_[^\"]*\".*?class=\"ellipsed-name\">([^<]*)</span>.*?"
              + "col-2\">(\\d+)</td>.*?col-3\">(\\d+)</td>.*?col-4\">(\\d+)</td>",
          Pattern.DOTALL);

  private static final Pattern ERROR =
      Pattern.compile("error-col-1 total ko\">(.*?)<span.*?error-col-2 total ko\">(\\d+)</td>", Pattern.DOTALL);

  private GatlingReport() {}

  /**
   * The report's error table: each failure message and how often it occurred.
   *
   * @param runFolder the run folder holding index.html
   * @return counts by message
   */
  public static Map<String, Long> errors(Path runFolder) throws IOException {
    String html = Files.readString(runFolder.resolve("index.html"));
    Map<String, Long> errors = new LinkedHashMap<>();
    Matcher row = ERROR.matcher(html);
    while (row.find()) {
      errors.put(unescape(row.group(1)), Long.parseLong(row.group(2)));
    }
    return errors;
  }

  /**
   * The counts of every request name and group in the report, in the report's order.
   *
   * @param runFolder the run folder holding index.html
   * @return counts by request name
   */
  public static Map<String, Counts> requests(Path runFolder) throws IOException {
    String html = Files.readString(runFolder.resolve("index.html"));
    Map<String, Counts> counts = new LinkedHashMap<>();
    Matcher row = ROW.matcher(html);
    while (row.find()) {
      counts.putIfAbsent(
          unescape(row.group(1)),
          new Counts(Long.parseLong(row.group(2)), Long.parseLong(row.group(3)),
              Long.parseLong(row.group(4))));
    }
    return counts;
  }

  /**
   * Checks a run of a DSL simulation whose failing requests say so: a name ending in "(KO)" must have failed every
   * time, any other never.
   *
   * @param runFolder the run folder holding index.html
   * @return counts by request name
   */
  public static Map<String, Counts> requestsFailingOnlyWhereNamedKo(Path runFolder) throws IOException {
    Map<String, Counts> requests = requests(runFolder);
    requests.forEach((name, counts) -> {
      if (name.endsWith("(KO)")) {
        assertEquals(0, counts.ok(), name + " should fail");
      } else {
        assertEquals(0, counts.ko(), () -> name + " should pass: " + errorsOrNone(runFolder));
      }
    });
    return requests;
  }

  private static String errorsOrNone(Path runFolder) {
    try {
      return errors(runFolder).toString();
    } catch (IOException e) {
      return "(no error table: " + e + ")";
    }
  }

  private static String unescape(String html) {
    return html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
        .replace("&#39;", "'").replace("&amp;", "&");
  }
}
