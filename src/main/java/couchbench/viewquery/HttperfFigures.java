package couchbench.viewquery;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * httperf's summary, line by line in its own layout, from a ViewQuery run's own records, so that
 * it can be set beside an old httperf output. Figures that Gatling does not let a simulation see
 * (connect time apart from the request, header and footer sizes, request size, network I/O) say
 * {@code n/a} instead of a guess.
 *
 * @param tally what the connections did (of every injector, for a merged run)
 * @param errors requests without a reply, by httperf's error kind (see {@link ErrorKinds})
 * @param injectors how many injectors' connections the tally holds: 1, or N for a merged run
 */
public record HttperfFigures(ConnFigures tally, Map<String, Long> errors, int injectors) {

  /** httperf samples the reply rate every 5 seconds. */
  public static final int REPLY_RATE_WINDOW = 5;

  /** @return the summary lines, blank lines between httperf's groups as it prints them */
  public List<String> lines() {
    double seconds = tally.seconds();
    double connRate = perSecond(tally.connections(), seconds);
    double requestRate = perSecond(tally.requests(), seconds);
    Samples.Stats connections = tally.connectionMillis();
    Samples.Stats replies = tally.replyMillis();
    Samples.Stats rate = tally.replyRate(REPLY_RATE_WINDOW);
    long total = errors.values().stream().mapToLong(Long::longValue).sum();
    List<String> lines = new ArrayList<>();
    lines.add(f("Total: connections %d requests %d replies %d test-duration %.3f s",
        tally.connections(), tally.requests(), tally.replies(), seconds));
    lines.add("");
    lines.add(f("Connection rate: %.1f conn/s (%.1f ms/conn, <=%d concurrent connections)",
        connRate, perItem(connRate), tally.mostOpen()));
    lines.add(f("Connection time [ms]: min %.1f avg %.1f max %.1f median %.1f stddev %.1f",
        connections.min(), connections.avg(), connections.max(), connections.median(), connections.stddev()));
    lines.add("Connection time [ms]: connect n/a");
    lines.add(f("Connection length [replies/conn]: %.3f", (double) tally.replies() / Math.max(1, tally.connections())));
    lines.add("");
    lines.add(f("Request rate: %.1f req/s (%.1f ms/req)", requestRate, perItem(requestRate)));
    lines.add("Request size [B]: n/a");
    lines.add("");
    lines.add(f("Reply rate [replies/s]: min %.1f avg %.1f max %.1f stddev %.1f (%d samples)",
        rate.min(), rate.avg(), rate.max(), rate.stddev(), rate.count()));
    lines.add(f("Reply time [ms]: response %.1f transfer n/a", replies.avg()));
    lines.add(f("Reply size [B]: header n/a content %.1f footer n/a (total n/a)", tally.replySizes().avg()));
    lines.add(f("Reply status: 1xx=%d 2xx=%d 3xx=%d 4xx=%d 5xx=%d", tally.statusClass(1), tally.statusClass(2),
        tally.statusClass(3), tally.statusClass(4), tally.statusClass(5)));
    lines.add("");
    double cpuSeconds = tally.cpuSeconds();
    lines.add(f("CPU time [s]: %.2f (user and system, %s; %.1f%% of test-duration)", cpuSeconds,
        injectors > 1 ? "the " + injectors + " injectors' Gatling JVMs added" : "Gatling JVM",
        seconds > 0 ? 100 * cpuSeconds / seconds : 0));
    lines.add("Net I/O: n/a");
    lines.add("");
    lines.add(f("Errors: total %d client-timo %d socket-timo %d connrefused %d connreset %d", total,
        errors.get("client-timo"), errors.get("socket-timo"), errors.get("connrefused"), errors.get("connreset")));
    lines.add(f("Errors: fd-unavail %d addrunavail %d ftab-full %d other %d", errors.get("fd-unavail"),
        errors.get("addrunavail"), errors.get("ftab-full"), errors.get("other")));
    return lines;
  }

  /** @return what the console shows: httperf's lines without its blank ones, then the reply time's spread */
  public List<String> console() {
    List<String> console = new ArrayList<>(lines().stream().filter(line -> !line.isEmpty()).toList());
    console.add(replyTimeSpread());
    return console;
  }

  /** @return couchbench's additions: the reply time's spread, which httperf gives as an average only */
  public String replyTimeSpread() {
    Samples.Stats replies = tally.replyMillis();
    return f("Reply time [ms]: min %.1f avg %.1f max %.1f median %.1f stddev %.1f p95 %.1f p99 %.1f"
            + " (couchbench: send to whole reply, connect included on a connection's first call)",
        replies.min(), replies.avg(), replies.max(), replies.median(), replies.stddev(),
        tally.replyPercentileMillis(95), tally.replyPercentileMillis(99));
  }

  private static double perSecond(long count, double seconds) {
    return seconds > 0 ? count / seconds : 0;
  }

  private static double perItem(double rate) {
    return rate > 0 ? 1000 / rate : 0;
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
