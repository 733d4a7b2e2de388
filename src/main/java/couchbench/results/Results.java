package couchbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

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
 * @param lostInjectors in merged results, the injectors of the run that left no results, and why; else empty
 * @param memcacheConnections each memcache server's connections opened, dropped and opened again; empty for a run
 *     without memcache, or of a file written before they were counted
 * @param cluster a run over several CouchDB nodes (or with -Dq/-Dn): each node's figures; null for others, and in
 *     merged results
 */
public record Results(int schema, Run run, List<Entry> requests, Map<String, Long> errors, List<KeyFile> keyFiles,
    List<ServerCount> serverCounts, JsonNode figures, List<LostInjector> lostInjectors,
    List<ServerConnections> memcacheConnections, ClusterResults cluster) {

  /** The schema this code writes. */
  public static final int SCHEMA = 3;

  /** The schemas this code reads. */
  public static final Set<Integer> READS = Set.of(1, 2, 3);

  /**
   * A schema 1 file has no key files or server counts, a run's own results no lost injectors, an older file no
   * memcache connections: empty, not null.
   */
  public Results {
    keyFiles = keyFiles == null ? List.of() : List.copyOf(keyFiles);
    serverCounts = serverCounts == null ? List.of() : List.copyOf(serverCounts);
    lostInjectors = lostInjectors == null ? List.of() : List.copyOf(lostInjectors);
    memcacheConnections = memcacheConnections == null ? List.of() : List.copyOf(memcacheConnections);
  }

  /** Results without a cluster's figures. */
  public Results(int schema, Run run, List<Entry> requests, Map<String, Long> errors, List<KeyFile> keyFiles,
      List<ServerCount> serverCounts, JsonNode figures, List<LostInjector> lostInjectors,
      List<ServerConnections> memcacheConnections) {
    this(schema, run, requests, errors, keyFiles, serverCounts, figures, lostInjectors, memcacheConnections, null);
  }

  /** Results with no lost injector, no memcache connection counted and no cluster. */
  public Results(int schema, Run run, List<Entry> requests, Map<String, Long> errors, List<KeyFile> keyFiles,
      List<ServerCount> serverCounts, JsonNode figures) {
    this(schema, run, requests, errors, keyFiles, serverCounts, figures, List.of(), List.of());
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
    return new Results(schema, run, requests, errors, keyFiles, serverCounts, figures, lostInjectors,
        memcacheConnections, cluster);
  }

  /**
   * @param figures a cluster's figures, or null
   * @return these results with them
   */
  public Results withCluster(ClusterResults figures) {
    return new Results(schema, run, requests, errors, keyFiles, serverCounts, this.figures, lostInjectors,
        memcacheConnections, figures);
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
   * nothing else changed the counter meanwhile. A counter the server does not offer (a proxy's stats, a store with other
   * counters) is n/a, with its reason: the run goes on without that check.
   *
   * @param counter what was counted, e.g. "memcache cmd_set"
   * @param before its value before the load; null when n/a
   * @param beforeAt when that was read, ISO-8601 UTC
   * @param after its value after the load; null when n/a
   * @param afterAt when that was read
   * @param acknowledged what the run's requests were acknowledged, which the change should equal
   * @param requests the request names whose OK count is acknowledged
   * @param notCounted why the counter is n/a, e.g. "memcache server 127.0.0.1:4000 reports no cmd_set"; null when it
   *     was read before and after
   * @param incomplete in merged results of which an injector was lost: what acknowledged leaves out (the lost
   *     injector's requests beyond the keys it had flushed), so that the change is at least acknowledged; else null
   */
  public record ServerCount(String counter, Long before, String beforeAt, Long after, String afterAt,
      long acknowledged, List<String> requests, String notCounted, String incomplete) {

    /** A counter read before and after the load. */
    public ServerCount(String counter, long before, String beforeAt, long after, String afterAt, long acknowledged,
        List<String> requests) {
      this(counter, before, beforeAt, after, afterAt, acknowledged, requests, null, null);
    }

    /**
     * @param counter what would have been counted
     * @param why why it is n/a
     * @param acknowledged what the run's requests were acknowledged
     * @param requests the request names whose OK count is acknowledged
     * @return the counter, n/a
     */
    public static ServerCount unavailable(String counter, String why, long acknowledged, List<String> requests) {
      return new ServerCount(counter, null, null, null, null, acknowledged, requests, why, null);
    }

    /** @return whether the counter was read before and after the load */
    public boolean counted() {
      return notCounted == null && before != null && after != null;
    }

    /** @return the counter's change over the load; 0 when n/a */
    public long change() {
      return counted() ? after - before : 0;
    }

    /**
     * @return whether the server's change equals what was acknowledged (with a lost injector: is at least that); true
     *     when n/a, which is no disagreement
     */
    public boolean agrees() {
      return !counted() || (incomplete == null ? change() == acknowledged : change() >= acknowledged);
    }

    /** @return one line: the change against the acknowledged count, or why there is none */
    public String describe() {
      String against = (incomplete == null ? " against " : " against at least ") + acknowledged + " acknowledged ("
          + String.join(", ", requests) + ")" + (incomplete == null ? "" : ", " + incomplete);
      if (!counted()) {
        return counter + " n/a (" + notCounted + "): the server's count is not checked" + against;
      }
      String verdict = incomplete == null ? (agrees() ? ": they agree" : ": they DIFFER")
          : (agrees() ? ": the change is at least that, as it should be" : ": the change is SMALLER");
      return counter + " went from " + before + " to " + after + " (" + (change() >= 0 ? "+" : "") + change() + ")"
          + against + verdict;
    }
  }

  /**
   * One memcache server's connections over the run, as couchbench's client counted them. A connection is dropped on an
   * error (a reply out of step with the requests, a malformed one, a timeout, the server closing it, an I/O error),
   * never when the run closes it, and the next request opens it again: a server that breaks the protocol shows here,
   * with its reconnects in the run's figures.
   *
   * @param server the server, {@code host:port}
   * @param opened connections opened, the reopened ones included
   * @param dropped connections dropped, by cause in words ("out-of-step reply", "closed by the server", "I/O error",
   *     "timeout", "malformed reply", "storage command refused"); only the causes that occurred
   * @param reopened connections opened again after one was dropped
   * @param firstReply the first reply or bytes no request was waiting for, printable ({@code \r}, {@code \n},
   *     {@code \xNN}), at most 60 bytes; null when there was none
   */
  public record ServerConnections(String server, long opened, Map<String, Long> dropped, long reopened,
      String firstReply) {

    public ServerConnections {
      dropped = dropped == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(dropped));
    }

    /** @return the connections dropped, whatever the cause */
    public long droppedInAll() {
      return dropped.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @param other the same server's connections in another injector's run
     * @return both added up, with this one's first reply if it has one
     */
    public ServerConnections plus(ServerConnections other) {
      Map<String, Long> both = new LinkedHashMap<>(dropped);
      other.dropped().forEach((cause, n) -> both.merge(cause, n, Long::sum));
      return new ServerConnections(server, opened + other.opened(), both, reopened + other.reopened(),
          firstReply != null ? firstReply : other.firstReply());
    }

    /** @return the drops by cause, e.g. {@code 900 out-of-step reply, 1 closed by the server}; empty without any */
    public String why() {
      return dropped.entrySet().stream().map(cause -> cause.getValue() + " " + cause.getKey())
          .collect(Collectors.joining(", "));
    }

    /**
     * @return one line, e.g. {@code 127.0.0.1:11211: 16 opened, 0 dropped}, or with drops
     *     {@code 127.0.0.1:11211: 2 opened, 900 dropped (900 out-of-step reply, the first "STORED\r\n"), 898 reopened}
     */
    public String describe() {
      if (dropped.isEmpty()) {
        return server + ": " + opened + " opened, 0 dropped";
      }
      return server + ": " + opened + " opened, " + droppedInAll() + " dropped (" + why()
          + (firstReply == null ? "" : ", the first reply no request was waiting for \"" + firstReply + "\"") + "), "
          + reopened + " reopened";
    }
  }

  /**
   * An injector of a merged run that left no results: killed, evicted, lost with its machine, or still running.
   *
   * @param injector its share, "I/N"
   * @param why e.g. "no results", "ended with exit code 137", "did not end in 7200 s"
   * @param keyFiles its key files as far as they were found
   */
  public record LostInjector(String injector, String why, List<LostKeyFile> keyFiles) {

    public LostInjector {
      keyFiles = keyFiles == null ? List.of() : List.copyOf(keyFiles);
    }
  }

  /**
   * A key file of a lost injector.
   *
   * @param keyFile the key file as the run's parameters name it
   * @param path the file found (its part file, or its key file), relative to the merged folder; null when lost
   * @param keys the whole keys in it: each acknowledged before the injector was lost (a cut last line left out)
   * @param state {@link #PARTIAL} or {@link #LOST}
   */
  public record LostKeyFile(String keyFile, String path, long keys, String state) {

    /** Found: the keys its injector had flushed when it was lost, joined into the merged key file. */
    public static final String PARTIAL = "partial";

    /** Not found where the other injectors' key files are: its keys are not in the merged key file. */
    public static final String LOST = "lost";
  }
}
