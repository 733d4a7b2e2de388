package couchbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * results.json: a run and its figures, per request name and group, machine-readable. The schema is versioned and
 * documented in docs/results.md; a reader refuses a schema it does not know.
 *
 * @param schema the schema's version, {@link #SCHEMA}
 * @param run what ran, against what, when
 * @param requests one entry per request name and per group, in order of first appearance
 * @param errors Gatling's errors outside any request (e.g. a crashed action), counted by message
 */
public record Results(int schema, Run run, List<Entry> requests, Map<String, Long> errors) {

  /** The schema this code writes and reads. */
  public static final int SCHEMA = 1;

  /**
   * @param simulation the simulation's class name
   * @param parameters every run parameter the simulation read, with the value it used (defaults included)
   * @param targets the servers loaded, as the run described them (never a password)
   * @param versions couchbench's, Gatling's and Java's
   * @param start the run's start, ISO-8601 UTC, as Gatling stamps it
   * @param end when its last request ended
   * @param injector the injector share ("I/N"), or null for a run from one injector
   * @param intervalSeconds the length of the intervals in histograms.hlog
   * @param histograms the interval log's file name, beside results.json
   */
  public record Run(String simulation, Map<String, String> parameters, List<String> targets, Versions versions,
      String start, String end, String injector, int intervalSeconds, String histograms) {}

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
   */
  public record Entry(String name, String kind, String clock, boolean warmUp, long count, long ok, long ko,
      Map<String, Long> failures, double ratePerSecond, Latency latency, String okTag, String koTag) {}

  /** Timed by couchbench's memcache client, System.nanoTime from the request written to its reply decoded. */
  public static final String CLIENT_CLOCK = "couchbench client (nanoseconds)";

  /** Timed by Gatling, in whole milliseconds (HTTP requests, groups). */
  public static final String GATLING_CLOCK = "Gatling (whole milliseconds)";

  /**
   * The OK requests' times, in {@link #unit}; all zero when none passed.
   *
   * @param unit always "us" (microseconds)
   */
  public record Latency(String unit, double mean, double p50, double p90, double p99,
      @JsonProperty("p99.9") double p999, @JsonProperty("p99.99") double p9999, double max) {}
}
