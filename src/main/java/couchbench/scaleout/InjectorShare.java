package couchbench.scaleout;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code -Dinjector=I/N}: this JVM is injector I of N running the same run at once, and takes its 1/N share of the
 * users, the rate, the connections and the documents (the shares of a count add up to the total exactly: the first
 * {@code total % N} injectors take one more). What it writes lives in a space of its own: keys and ids start with
 * {@link #keyPrefix()}, key files and per-run databases carry its index. httperf's {@code --client=I/N}, which
 * ViewQuery took first, is the same idea: {@code -Dclient} is read as another name for {@code -Dinjector}.
 *
 * @param index I, from 0 to N-1
 * @param count N, 1 or more
 */
public record InjectorShare(int index, int count) {

  /** The parameter's name. */
  public static final String PARAMETER = "injector";

  /** httperf's name for the same share, which ViewQuery documented first. */
  public static final String HTTPERF_ALIAS = "client";

  /** One injector doing all the work, as httperf's default {@code --client=0/1}. */
  public static final InjectorShare ALONE = new InjectorShare(0, 1);

  private static final Pattern SHAPE = Pattern.compile("\\s*(\\d{1,9})\\s*/\\s*(\\d{1,9})\\s*");

  /**
   * Reads {@code -Dinjector=I/N}, or its alias {@code -Dclient=I/N}.
   *
   * @param settings the run's settings
   * @return the share; {@link #ALONE} when neither is given
   * @throws SettingsException unless 0 <= I < N, or when both names are given with different shares
   */
  public static InjectorShare from(Settings settings) {
    Optional<String> injector = settings.value(PARAMETER);
    Optional<String> client = settings.value(HTTPERF_ALIAS);
    if (injector.isPresent() && client.isPresent()
        && !parse(PARAMETER, injector.get()).equals(parse(HTTPERF_ALIAS, client.get()))) {
      throw new SettingsException("-D" + PARAMETER + "=" + injector.get() + " and -D" + HTTPERF_ALIAS + "="
          + client.get() + " disagree: -Dclient is another name for -Dinjector; give one of them");
    }
    if (injector.isEmpty() && client.isPresent()) {
      return parse(HTTPERF_ALIAS, settings.get(HTTPERF_ALIAS, ALONE.toString()));
    }
    return parse(PARAMETER, settings.get(PARAMETER, ALONE.toString()));
  }

  /**
   * Reads {@code I/N}.
   *
   * @param name the parameter's name, for the message
   * @param text e.g. {@code 0/2}
   * @return the share
   * @throws SettingsException unless 0 <= I < N
   */
  public static InjectorShare parse(String name, String text) {
    Matcher matcher = SHAPE.matcher(text);
    if (matcher.matches()) {
      int index = Integer.parseInt(matcher.group(1));
      int count = Integer.parseInt(matcher.group(2));
      if (count >= 1 && index < count) {
        return new InjectorShare(index, count);
      }
    }
    throw new SettingsException("-D" + name + "=" + text
        + " is not I/N with 0 <= I < N (expected e.g. 0/1, or 1/2 for the second of two injectors)");
  }

  /** @return whether this is the only injector of its run */
  public boolean alone() {
    return count == 1;
  }

  /** @return whether this injector does the run's one-time setup: injector 0 */
  public boolean first() {
    return index == 0;
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

  /**
   * This injector's share of a count that must leave every injector at least one.
   *
   * @param name the parameter holding the total, for the message
   * @param total the count of all injectors together
   * @return {@link #share}
   * @throws SettingsException when the total leaves this injector nothing
   */
  public int atLeastOne(String name, int total) {
    int share = (int) share(total);
    if (share < 1) {
      throw new SettingsException("-D" + name + "=" + total + " leaves nothing to injector " + this
          + " (expected " + name + " >= N of -D" + PARAMETER + "=I/N)");
    }
    return share;
  }

  /**
   * The start of every key and id this injector writes: none for a run of one injector (its keys stay as they always
   * were), else {@code i<I>-}, which memcache accepts in a key and CouchDB in an id, unescaped in a URL.
   *
   * @return the prefix
   */
  public String keyPrefix() {
    return alone() ? "" : "i" + index + "-";
  }

  /**
   * The file this injector writes where a run of one injector writes {@code file}: the same for one injector, else
   * with {@link #suffix()} before the extension ({@code memcache.csv} becomes {@code memcache.injector0of2.csv}), so
   * that injectors sharing a folder never write the same file.
   *
   * @param file the file of a run of one injector
   * @return this injector's file
   */
  public Path ownFile(Path file) {
    if (alone()) {
      return file;
    }
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String own = dot > 0 ? name.substring(0, dot) + "." + suffix() + name.substring(dot) : name + "." + suffix();
    return file.resolveSibling(own);
  }

  /**
   * The end of the names of what this injector creates for its run alone (BulkInsert's step databases,
   * AttachmentUpload's database): none for one injector, else {@code _injector0of2}, valid in a CouchDB name.
   *
   * @return the suffix
   */
  public String databaseSuffix() {
    return alone() ? "" : "_" + suffix();
  }

  private String suffix() {
    return "injector" + index + "of" + count;
  }

  @Override
  public String toString() {
    return index + "/" + count;
  }

  /**
   * @param injectors each injector's lines, injector 0's first
   * @return them all, each prefixed with its injector, e.g. "injector 1/2: "
   */
  public static List<String> prefixed(List<List<String>> injectors) {
    List<String> all = new ArrayList<>();
    for (int i = 0; i < injectors.size(); i++) {
      String injector = "injector " + new InjectorShare(i, injectors.size()) + ": ";
      injectors.get(i).forEach(line -> all.add(injector + line));
    }
    return all;
  }
}
