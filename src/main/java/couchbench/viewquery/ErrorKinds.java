package couchbench.viewquery;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * httperf's error kinds for requests that got no reply, recognised in Gatling's failure messages
 * (Netty's and the JDK's exception texts). A failed check is not an error here: it had a reply,
 * which counts under the reply status, as in httperf.
 */
public final class ErrorKinds {

  /** httperf's names, in the order of its two "Errors:" lines. */
  public static final List<String> NAMES = List.of("client-timo", "socket-timo", "connrefused", "connreset",
      "fd-unavail", "addrunavail", "ftab-full", "other");

  private ErrorKinds() {}

  /**
   * The httperf kind of one Gatling failure message.
   *
   * @param message e.g. {@code i.n.c.AbstractChannel$AnnotatedConnectException: Connection refused: /127.0.0.1:5984}
   * @return one of {@link #NAMES}; {@code other} when nothing matches
   */
  public static String of(String message) {
    String text = message.toLowerCase(Locale.ROOT);
    if (text.contains("refused")) {
      return "connrefused";
    }
    if (text.contains("reset") || text.contains("premature close") || text.contains("broken pipe")) {
      return "connreset";
    }
    if (text.contains("connecttimeout") || text.contains("connection timed out")) {
      return "socket-timo";
    }
    if (text.contains("timeout") || text.contains("timed out")) {
      return "client-timo";
    }
    if (text.contains("too many open files")) {
      return "fd-unavail";
    }
    if (text.contains("cannot assign requested address")) {
      return "addrunavail";
    }
    return "other";
  }

  /**
   * Counts the requests without a reply by kind.
   *
   * @param unanswered requests that got no reply, counted in-process
   * @param messages Gatling's failure messages and their counts; messages of failed checks may be
   *     among them and are ignored
   * @return count by kind, every name present; what the messages do not explain counts as other
   */
  public static Map<String, Long> count(long unanswered, Map<String, Long> messages) {
    Map<String, Long> counts = new LinkedHashMap<>();
    NAMES.forEach(name -> counts.put(name, 0L));
    long explained = 0;
    for (Map.Entry<String, Long> message : messages.entrySet()) {
      String kind = of(message.getKey());
      if (!kind.equals("other")) {
        counts.merge(kind, message.getValue(), Long::sum);
        explained += message.getValue();
      }
    }
    counts.put("other", Math.max(0, unanswered - explained));
    return counts;
  }
}
