package couchbench.metrics;

import couchbench.results.LiveFigures;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The run's requests so far, per name and outcome, its users active per scenario, a paced load's times from the
 * intended start and a staircase's step, as the run records them: what a scrape reads. Added to from Gatling's threads (each request, as Gatling records it) and from the run's tick (each
 * second of the memcache client's own times).
 */
final class LiveRequests implements LiveFigures {

  /** A request name and outcome. */
  record Key(String request, boolean ok) {}

  /** A staircase's step under way. */
  record Step(int number, double rate) {}

  private final Map<Key, LatencyBuckets> requests = new ConcurrentHashMap<>();
  private final Map<Key, LatencyBuckets> intended = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> activeUsers = new ConcurrentHashMap<>();
  private final Map<String, Step> steps = new ConcurrentHashMap<>();

  @Override
  public void response(String name, long startMillis, long endMillis, boolean ok) {
    buckets(name, ok).add(Math.max(0, endMillis - startMillis) * 1_000_000L);
  }

  @Override
  public void clientSecond(String name, boolean ok, Histogram nanos) {
    buckets(name, ok).add(nanos);
  }

  @Override
  public void user(String scenario, boolean start) {
    activeUsers.computeIfAbsent(scenario, any -> new AtomicLong()).addAndGet(start ? 1 : -1);
  }

  @Override
  public void intendedTime(String operation, boolean ok, long nanos) {
    buckets(intended, operation, ok).add(nanos);
  }

  @Override
  public void stepBegins(String system, int step, double rate) {
    steps.put(system, new Step(step, rate));
  }

  private LatencyBuckets buckets(String name, boolean ok) {
    return buckets(requests, name, ok);
  }

  private static LatencyBuckets buckets(Map<Key, LatencyBuckets> named, String name, boolean ok) {
    Key key = new Key(name, ok);
    LatencyBuckets buckets = named.get(key);
    return buckets != null ? buckets : named.computeIfAbsent(key, any -> new LatencyBuckets());
  }

  /** @return each request name's and outcome's times so far */
  Map<Key, LatencyBuckets> requests() {
    return requests;
  }

  /** @return each paced operation's and outcome's times from the intended start so far */
  Map<Key, LatencyBuckets> intended() {
    return intended;
  }

  /** @return each staircase's step under way, by the system it loads */
  Map<String, Step> steps() {
    return steps;
  }

  /** @return each scenario's users started and not yet ended */
  Map<String, AtomicLong> activeUsers() {
    return activeUsers;
  }
}
