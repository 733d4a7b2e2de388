package couchbench.history;

import couchbench.startup.SettingsException;
import java.util.ArrayList;
import java.util.List;

/**
 * One threshold of -Dregression=p99:10%,throughput:5%: how much worse a figure may be than the baseline's.
 *
 * @param figure the figure
 * @param fraction how much worse it may be, e.g. 0.1 for 10%
 */
public record Regression(Figure figure, double fraction) {

  /** The thresholds without -Dregression. */
  public static final String DEFAULT = "p99:10%,throughput:5%";

  /**
   * @param text e.g. "p99:10%,throughput:5%"
   * @return the thresholds, in order
   * @throws SettingsException naming -Dregression, the part that does not parse and the form it takes
   */
  public static List<Regression> parse(String text) {
    List<Regression> rules = new ArrayList<>();
    for (String part : text.split(",")) {
      String[] figureAndShare = part.split(":", -1);
      Figure figure = figureAndShare.length == 2 ? Figure.named(figureAndShare[0]) : null;
      Double percent = figureAndShare.length == 2 ? percent(figureAndShare[1]) : null;
      if (figure == null || percent == null) {
        throw new SettingsException("-Dregression=" + text + ": '" + part.trim() + "' is not a figure and a"
            + " threshold; give e.g. -Dregression=p99:10%,throughput:5% (figures: " + Figure.labels() + ")");
      }
      rules.add(new Regression(figure, percent / 100));
    }
    return rules;
  }

  private static Double percent(String text) {
    String number = text.trim().endsWith("%") ? text.trim().substring(0, text.trim().length() - 1) : text.trim();
    try {
      double value = Double.parseDouble(number);
      return value >= 0 && Double.isFinite(value) ? value : null;
    } catch (NumberFormatException notANumber) {
      return null;
    }
  }
}
