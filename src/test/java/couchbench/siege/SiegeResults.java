package couchbench.siege;

import couchbench.results.Results;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Results as a siege run's results.json holds them, of entries with known counts, times and windows, for pages. */
public final class SiegeResults {

  /** When the runs here start. */
  public static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  private SiegeResults() {}

  /**
   * @param name the request or group name
   * @param kind "request" or "group"
   * @param ok passed
   * @param ko failed
   * @param meanMicros the passed ones' mean time
   * @param minMicros their shortest
   * @param maxMicros their longest
   * @param fromMillis its first start, after {@link #START}
   * @param toMillis its last end, after {@link #START}
   * @return the entry
   */
  public static Results.Entry entry(String name, String kind, long ok, long ko, double meanMicros, double minMicros,
      double maxMicros, long fromMillis, long toMillis) {
    return new Results.Entry(name, kind, kind.equals("group") ? Results.GATLING_CLOCK : Results.CLIENT_CLOCK,
        name.startsWith(SiegePlan.WARMUP), ok + ko, ok, ko, Map.of(), 0,
        new Results.Latency("us", minMicros, meanMicros, meanMicros, maxMicros, maxMicros, maxMicros, maxMicros,
            maxMicros), "ok:" + name, "ko:" + name, START.plusMillis(fromMillis).toString(),
        START.plusMillis(toMillis).toString());
  }

  /**
   * @param simulation the simulation's name
   * @param injector the share, "*&#47;N" for merged results, or null for one injector's
   * @param targets the targets' descriptions
   * @param entries the entries
   * @return the results, without figures (the page gets them apart)
   */
  public static Results of(String simulation, String injector, List<String> targets, List<Results.Entry> entries) {
    return new Results(Results.SCHEMA, new Results.Run(simulation, Map.of(), targets,
        new Results.Versions("test", "3.15.1", "21"), START.toString(), START.plusSeconds(60).toString(), injector, 5,
        "histograms.hlog", null, null), entries, Map.of(), List.of(), List.of(), null);
  }
}
