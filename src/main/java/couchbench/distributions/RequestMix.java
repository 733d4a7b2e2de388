package couchbench.distributions;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The classes of requests a run asks and each one's share, as a user gives them: -D&lt;list&gt;=a,b (a share of 1
 * each, "all" for every class, the default) or -Dmix=a:9,b:1,write:1 (writes have a share only there); not both.
 *
 * @param shares each class's share, in the order given, without the writes
 * @param writeShare the writes' share, 0 without writes
 * @param byDefault whether neither setting was given: every class, a share each
 */
public record RequestMix(Map<String, Integer> shares, int writeShare, boolean byDefault) {

  /** The name of writes in -Dmix. */
  public static final String WRITE = "write";

  /**
   * Reads the mix.
   *
   * @param list the setting naming classes, e.g. "queries"
   * @param listed its value, if given
   * @param mixed -Dmix's value, if given
   * @param kind what a class is, in messages, e.g. "query"
   * @param classes every class's name, in their order
   * @return the mix
   * @throws IllegalArgumentException with one line naming the setting and what to give
   */
  public static RequestMix from(String list, Optional<String> listed, Optional<String> mixed, String kind,
      List<String> classes) {
    String example = classes.get(0) + ":9," + WRITE + ":1";
    if (mixed.isPresent() && listed.isPresent()) {
      throw new IllegalArgumentException("-D" + list + " and -Dmix are both given: give -D" + list + "="
          + String.join(",", classes.subList(0, Math.min(2, classes.size()))) + " (an equal share each) or -Dmix="
          + example + " alone");
    }
    Map<String, Integer> shares = new LinkedHashMap<>();
    int writeShare = 0;
    String setting = mixed.map(given -> "-Dmix=" + given).orElse("-D" + list + "=" + listed.orElse(""));
    try {
      if (mixed.isEmpty()) {
        String names = listed.orElse("all");
        for (String name : names.trim().equals("all") ? classes : List.of(names.split(","))) {
          if (shares.put(known(name, kind, classes), 1) != null) {
            throw new IllegalArgumentException(name.trim() + " is given twice");
          }
        }
      } else {
        for (String part : mixed.get().split(",")) {
          String[] nameAndWeight = part.split(":", 2);
          String name = nameAndWeight[0].trim().toLowerCase(Locale.ROOT);
          int weight = Integer.parseInt(nameAndWeight[1].trim());
          boolean again = name.equals(WRITE) ? writeShare > 0 : shares.containsKey(known(name, kind, classes));
          if (weight < 1 || again) {
            throw new IllegalArgumentException(part.trim() + ": a weight above 0, each name once");
          }
          if (name.equals(WRITE)) {
            writeShare = weight;
          } else {
            shares.put(name, weight);
          }
        }
      }
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      throw new IllegalArgumentException(setting + ": " + (e instanceof NumberFormatException
          || e instanceof ArrayIndexOutOfBoundsException ? "give names and weights, e.g. " + example
          : e.getMessage()) + " (classes: " + String.join(", ", classes) + ")");
    }
    if (shares.isEmpty()) {
      throw new IllegalArgumentException(setting + ": give at least one " + kind + " class beside the writes, e.g. "
          + example);
    }
    return new RequestMix(shares, writeShare, listed.isEmpty() && mixed.isEmpty());
  }

  private static String known(String name, String kind, List<String> classes) {
    String value = name.trim().toLowerCase(Locale.ROOT);
    if (!classes.contains(value)) {
      throw new IllegalArgumentException("no " + kind + " class " + name.trim() + "; there are "
          + String.join(", ", classes));
    }
    return value;
  }

  /** @return the shares as -Dmix would give them, e.g. "range:9,sort:1,write:1" */
  public String describe() {
    StringBuilder line = new StringBuilder();
    shares.forEach((name, weight) -> line.append(line.isEmpty() ? "" : ",").append(name).append(':').append(weight));
    return line + (writeShare > 0 ? "," + WRITE + ":" + writeShare : "");
  }
}
