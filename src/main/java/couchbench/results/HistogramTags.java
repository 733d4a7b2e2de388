package couchbench.results;

import java.util.regex.Pattern;

/**
 * The tag of a request name's or group's histograms in histograms.hlog: {@code request:<name>:ok},
 * {@code group:<name>:ko}. The log format forbids spaces and commas in a tag, so they become underscores;
 * results.json names each entry's tags, so nothing has to be decoded.
 */
public final class HistogramTags {

  private static final Pattern FORBIDDEN = Pattern.compile("[\\s,]");

  private HistogramTags() {}

  /** @return the tag of a request name's OK (passed) or KO histograms */
  public static String request(String name, boolean passed) {
    return tag("request", name, passed);
  }

  /** @return the tag of a group's OK (passed) or KO histograms */
  public static String group(String name, boolean passed) {
    return tag("group", name, passed);
  }

  /** @return whether a tag is an OK (passed) histogram's */
  public static boolean passed(String tag) {
    return tag.endsWith(":ok");
  }

  private static String tag(String kind, String name, boolean passed) {
    return kind + ":" + FORBIDDEN.matcher(name).replaceAll("_") + (passed ? ":ok" : ":ko");
  }
}
