package couchbench.viewquery;

import couchbench.targets.SettingsException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * httperf's {@code --client=I/N}: this injector is number I of N running the same test at once, and
 * takes its 1/N share of the rate and of the connections (the shares of the connections add up to
 * the total exactly: the first {@code total % N} injectors take one more).
 *
 * @param index I, from 0 to N-1
 * @param count N, 1 or more
 */
public record ClientShare(int index, int count) {

  /** One injector doing all the work, as httperf's default {@code --client=0/1}. */
  public static final ClientShare ALONE = new ClientShare(0, 1);

  private static final Pattern SHAPE = Pattern.compile("\\s*(\\d{1,9})\\s*/\\s*(\\d{1,9})\\s*");

  /**
   * Reads {@code I/N}.
   *
   * @param name the parameter's name, for the message
   * @param text e.g. {@code 0/2}
   * @return the share
   * @throws SettingsException unless 0 <= I < N
   */
  public static ClientShare parse(String name, String text) {
    Matcher matcher = SHAPE.matcher(text);
    if (matcher.matches()) {
      int index = Integer.parseInt(matcher.group(1));
      int count = Integer.parseInt(matcher.group(2));
      if (count >= 1 && index < count) {
        return new ClientShare(index, count);
      }
    }
    throw new SettingsException("-D" + name + "=" + text
        + " is not I/N with 0 <= I < N (expected e.g. 0/1, or 1/2 for the second of two injectors)");
  }

  /**
   * This injector's share of a rate.
   *
   * @param total the rate of all injectors together
   * @return total / N
   */
  public double rate(double total) {
    return total / count;
  }

  /**
   * This injector's share of a count.
   *
   * @param total the count of all injectors together
   * @return total / N, plus one for the first {@code total % N} injectors
   */
  public long share(long total) {
    return total / count + (index < total % count ? 1 : 0);
  }

  @Override
  public String toString() {
    return index + "/" + count;
  }
}
