package couchbench.search;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.ReplyJson;
import couchbench.startup.Console;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * -DbuildRate: documents written while the index builds, a new one each 1/rate s (an open model: a slow server does not
 * slow the writes' starts), of words no search of the data asks for ({@link Write}), so that every class's answer
 * stays known; once the build answered and the writes stopped, every acknowledged write is searched for through the
 * index ({@code tag:written}, page after page), and one the index lacks stops the run, named.
 */
final class BuildWriters {

  // Writes in flight at once: at 1000 a second (the highest -DbuildRate) and 10 ms a write, 10.
  private static final int WRITERS = 16;
  private static final int PAGE = 200;

  private final CouchDbClient client;
  private final SearchPlan plan;
  private final LongSupplier numbers;
  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();

  /**
   * @param client the client the writes go through
   * @param plan the run's plan: its database, seed and -DbuildRate
   * @param numbers the run's numbers of writes, each taken once
   */
  BuildWriters(CouchDbClient client, SearchPlan plan, LongSupplier numbers) {
    this.client = client;
    this.plan = plan;
    this.numbers = numbers;
  }

  /**
   * Runs a build while writing at -DbuildRate (without it, the build alone).
   *
   * @param build the build, from its design document to its first search answered
   * @return its figures, with the writes acknowledged meanwhile
   * @throws SearchException when CouchDB refused a write
   */
  SearchFigures.Build during(Supplier<SearchFigures.Build> build) {
    if (plan.buildRate() <= 0) {
      return build.get();
    }
    int before = acknowledged.size();
    AtomicReference<String> refused = new AtomicReference<>("");
    ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(daemon("couchbench-build-ticks"));
    ExecutorService writers = Executors.newFixedThreadPool(WRITERS, daemon("couchbench-build-writer"));
    SearchFigures.Build built;
    try {
      ticks.scheduleAtFixedRate(() -> writers.execute(() -> write(refused)), 0,
          Math.round(1e9 / plan.buildRate()), TimeUnit.NANOSECONDS);
      built = build.get();
    } finally {
      ticks.shutdownNow();
      writers.shutdown();
      try {
        writers.awaitTermination(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (!refused.get().isEmpty()) {
      throw new SearchException("CouchDB refused a write to " + plan.database() + " while the index built: "
          + refused.get() + "; lower -DbuildRate=" + plan.buildRate());
    }
    return built.withWrites(acknowledged.size() - before);
  }

  private void write(AtomicReference<String> refused) {
    long number = numbers.getAsLong();
    Write write = Write.of(plan.database(), number, new SplittableRandom(plan.seed() + number),
        plan.partitioned());
    CouchReply reply = client.exchange("PUT", write.path(), write.body());
    if (reply.status() == 201 || reply.status() == 202) {
      acknowledged.add(write.id());
    } else {
      refused.compareAndSet("", write.id() + ": " + reply.status() + " " + reply.reason());
    }
  }

  /**
   * Searches the index for every write acknowledged so far, page after page, once the writes stopped.
   *
   * @throws SearchException naming a write the index lacks, or a search refused
   */
  void requireAllFound() {
    if (acknowledged.isEmpty()) {
      return;
    }
    Set<String> found = new HashSet<>();
    for (String partition : Corpus.partitions(plan.partitioned())) {
      found.addAll(found(partition));
    }
    Set<String> missing = new HashSet<>(acknowledged);
    missing.removeAll(found);
    if (!missing.isEmpty()) {
      throw new SearchException(String.format(Locale.ROOT, "the index lacks %d of the %d writes acknowledged while"
          + " it built, e.g. %s: a search with update=true found %d", missing.size(), acknowledged.size(),
          missing.iterator().next(), found.size()));
    }
    Console.say(String.format(Locale.ROOT, "search: every one of the %,d writes acknowledged while the index built"
        + " found by a search after it", acknowledged.size()));
  }

  // Every write in a partition (the whole database for ""), page after page.
  private Set<String> found(String partition) {
    Set<String> found = new HashSet<>();
    String bookmark = "";
    while (true) {
      CouchReply reply = client.get(SearchIndex.path(plan.database(), partition) + "?q="
          + SearchCall.encode("tag:" + Write.TAG) + "&limit=" + PAGE
          + (bookmark.isEmpty() ? "" : "&bookmark=" + SearchCall.encode(bookmark)));
      JsonNode page = ReplyJson.of(reply.body());
      if (reply.status() != 200) {
        throw new SearchException("CouchDB refused the search for the writes made while the index built: "
            + reply.status() + " " + SearchCall.refusal(page));
      }
      page.path("hits").forEach(hit -> found.add(hit.path("id").asText()));
      if (page.path("hits").size() < PAGE) {
        return found;
      }
      bookmark = page.path("bookmark").asText();
    }
  }

  private static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
