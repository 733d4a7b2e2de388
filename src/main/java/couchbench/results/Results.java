package couchbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * results.json: a run and its figures, per request name and group, machine-readable. The schema is versioned and
 * documented in docs/results.md; a reader refuses a schema it does not know. Schema 2 added what merging the results
 * of several injectors needs (each entry's window, the key files written, the servers' counts, the agreed start);
 * a schema 1 file reads with those empty. Schema 3 added each entry's shortest time and the simulation's own figures
 * ({@link Summary}), from which its summary page is built, for one run and for the merged run of several injectors.
 *
 * @param schema the schema's version, {@link #SCHEMA}
 * @param run what ran, against what, when
 * @param requests one entry per request name and per group, in order of first appearance
 * @param errors Gatling's errors outside any request (e.g. a crashed action), counted by message
 * @param keyFiles the key files the run wrote (empty for a simulation that writes none)
 * @param serverCounts the servers' own counters around the load, against what the run was acknowledged
 * @param figures the simulation's own figures, as its {@link Summary} keeps them; null before schema 3, or for a run
 *     whose simulation has none
 */
public record Results(int schema, Run run, List<Entry> requests, Map<String, Long> errors, List<KeyFile> keyFiles,
    List<ServerCount> serverCounts, JsonNode figures) {

  /** The schema this code writes. */
  public static final int SCHEMA = 3;

  /** The schemas this code reads. */
  public static final Set<Integer> READS = Set.of(1, 2, 3);

  /** A schema 1 file has no key files or server counts: empty, not null. */
  public Results {
    keyFiles = keyFiles == null ? List.of() : List.copyOf(keyFiles);
    serverCounts = serverCounts == null ? List.of() : List.copyOf(serverCounts);
  }

  /**
   * @param simulation the simulation's class name
   * @param parameters every run parameter the simulation read, with the value it used (defaults included)
   * @param targets the servers loaded, as the run described them (never a password)
   * @param versions couchbench's, Gatling's and Java's
   * @param start the run's start, ISO-8601 UTC, as Gatling stamps it
   * @param end when its last request ended
   * @param injector the injector share ("I/N"), "*&#47;N" for the merged results of N injectors, or null for a run
   *     from one injector
   * @param intervalSeconds the length of the intervals in histograms.hlog
   * @param histograms the interval log's file name, beside results.json
   * @param startAt the instant all injectors of the run were to start their load (-DstartAt), or null
   * @param startSkewMillis how late this injector's load started after startAt (the largest of all injectors', in
   *     merged results), or null without startAt
   */
  public record Run(String simulation, Map<String, String> parameters, List<String> targets, Versions versions,
      String start, String end, String injector, int intervalSeconds, String histograms, String startAt,
      Long startSkewMillis) {

    /** How {@link #injector} begins in the merged results of several injectors: {@code "*&#47;N"}. */
    static final String MERGED = "*/";

    /** @return whether these are the merged results of several injectors */
    public boolean merged() {
      return injector != null && injector.startsWith(MERGED);
    }

    /** @return how many injectors' runs these results add up: N for merged results of N, else 1 */
    public int injectorCount() {
      return merged() ? Integer.parseInt(injector.substring(MERGED.length())) : 1;
    }
  }

  /** The versions a run ran with. */
  public record Versions(String couchbench, String gatling, String java) {}

  /**
   * One request name or group.
   *
   * @param name as in Gatling's report
   * @param kind "request" or "group" (a group's time is its duration, from entering it to leaving it)
   * @param clock who timed it: {@link #CLIENT_CLOCK} or {@link #GATLING_CLOCK}
   * @param warmUp whether it is an unmeasured warm-up (its name starts with "warm-up")
   * @param count OK + KO
   * @param ok passed
   * @param ko failed
   * @param failures the failed ones counted by message
   * @param ratePerSecond count over the time from its first start to its last end
   * @param latency the OK ones' times
   * @param okTag the tag of its OK histograms in histograms.hlog
   * @param koTag the tag of its KO histograms
   * @param firstStart when its first request started, ISO-8601 UTC to the millisecond (Gatling's clock); null when
   *     unknown (schema 1)
   * @param lastEnd when its last request ended; null when unknown
   */
  public record Entry(String name, String kind, String clock, boolean warmUp, long count, long ok, long ko,
      Map<String, Long> failures, double ratePerSecond, Latency latency, String okTag, String koTag,
      String firstStart, String lastEnd) {}

  /** Timed by couchbench's memcache client, System.nanoTime from the request written to its reply decoded. */
  public static final String CLIENT_CLOCK = "couchbench client (nanoseconds)";

  /** Timed by Gatling, in whole milliseconds (HTTP requests, groups). */
  public static final String GATLING_CLOCK = "Gatling (whole milliseconds)";

  /**
   * @param figures the simulation's own figures
   * @return these results with them
   */
  public Results withFigures(JsonNode figures) {
    return new Results(schema, run, requests, errors, keyFiles, serverCounts, figures);
  }

  /**
   * Gatling's failure messages of one request name, for a page that sorts them (for a merged run, every injector's
   * added up).
   *
   * @param requestName the name, as in Gatling's report
   * @return its failed requests counted by message; empty for a name without an entry
   */
  public Map<String, Long> failures(String requestName) {
    return requests.stream().filter(entry -> entry.kind().equals("request") && entry.name().equals(requestName))
        .findFirst().map(Entry::failures).orElse(Map.of());
  }

  /**
   * The OK requests' times, in {@link #unit}; all zero when none passed.
   *
   * @param unit always "us" (microseconds)
   * @param min the shortest; null before schema 3
   */
  public record Latency(String unit, Double min, double mean, double p50, double p90, double p99,
      @JsonProperty("p99.9") double p999, @JsonProperty("p99.99") double p9999, double max) {}

  /**
   * A key file the run wrote: exactly the keys the server acknowledged.
   *
   * @param keyFile the key file as the run's parameters name it (-DkeyFile, or the default)
   * @param path the file written, relative to the run folder (it differs from keyFile for one injector of several)
   * @param keys the keys in it
   */
  public record KeyFile(String keyFile, String path, long keys) {}

  /**
   * A server's counter read before and after the load, against what the run was acknowledged: they agree when
   * nothing else changed the counter meanwhile.
   *
   * @param counter what was counted, e.g. "memcache cmd_set"
   * @param before its value before the load
   * @param beforeAt when that was read, ISO-8601 UTC
   * @param after its value after the load
   * @param afterAt when that was read
   * @param acknowledged what the run's requests were acknowledged, which the change should equal
   * @param requests the request names whose OK count is acknowledged
   */
  public record ServerCount(String counter, long before, String beforeAt, long after, String afterAt,
      long acknowledged, List<String> requests) {

    /** @return the counter's change over the load */
    public long change() {
      return after - before;
    }

    /** @return whether the server's change equals what was acknowledged */
    public boolean agrees() {
      return change() == acknowledged;
    }

    /** @return one line: the change against the acknowledged count */
    public String describe() {
      return counter + " went from " + before + " to " + after + " (+" + change() + ") against " + acknowledged
          + " acknowledged (" + String.join(", ", requests) + ")" + (agrees() ? ": they agree" : ": they DIFFER");
    }
  }
}
