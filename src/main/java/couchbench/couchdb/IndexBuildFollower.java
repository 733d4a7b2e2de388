package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.startup.Console;
import couchbench.startup.OneLineException;
import couchbench.targets.CouchWaits;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An index build followed until its index answers. CouchDB (and pouchdb-server) answer a query of an index, a view's
 * or Mango's, once the index is up to date: such a request is sent here without the client's reply timeout, however
 * long the build takes, up to -DindexTimeout when set. Meanwhile _active_tasks is read every 200 ms for the build's
 * indexer, and a line says every 5 s how far it has come ("index build: db/_design/x: 45% (12.3 s)"; the elapsed time
 * alone where the server lists no indexer, as pouchdb-server does). Start it before the request that creates the
 * index, close it once the index answered.
 */
public final class IndexBuildFollower implements AutoCloseable {

  private static final long SAMPLE_MILLIS = 200;
  // A view's or a Mango index's build is an "indexer"; a Nouveau (or Clouseau) index's a "search_indexer".
  private static final Set<String> INDEXERS = Set.of("indexer", "search_indexer");
  private static final long LINE_NANOS = Duration.ofSeconds(5).toNanos();

  private final CouchDbClient client;
  private final String database;
  private final String design;
  private final long start = System.nanoTime();
  private long nextLine = start + LINE_NANOS; // read and written by the thread that awaits
  private final AtomicInteger samples = new AtomicInteger();
  private final AtomicInteger samplesSeen = new AtomicInteger();
  private final AtomicLong highest = new AtomicLong(-1);
  private volatile int latest = -1;
  private final Thread sampling;

  private IndexBuildFollower(CouchDbClient client, String database, String ddoc) {
    this.client = client;
    this.database = database;
    this.design = "_design/" + ddoc;
    this.sampling = new Thread(this::sample, "couchbench-index-build");
    sampling.setDaemon(true);
  }

  /**
   * Starts following a build: _active_tasks read until {@link #close()}, a progress line every 5 s while a request
   * awaits the index.
   *
   * @param client the client the build's requests go through; its waits say how long the build may take
   * @param database the database
   * @param ddoc the design document's name, without {@code _design/}
   * @return the follower, its clock started
   */
  public static IndexBuildFollower start(CouchDbClient client, String database, String ddoc) {
    IndexBuildFollower follower = new IndexBuildFollower(client, database, ddoc);
    follower.sampling.start();
    return follower;
  }

  /**
   * Sends a request that CouchDB answers once the index is built, and waits for its reply: as long as it takes, or
   * until -DindexTimeout after {@link #start}.
   *
   * @param method e.g. "GET"
   * @param path the path below the server, with its query string
   * @param json the body, "" for none
   * @return the reply, whatever its status (a refused login throws)
   * @throws CouchDbException when the server does not answer, or not within -DindexTimeout
   */
  public CouchReply await(String method, String path, String json) {
    FutureTask<CouchReply> request = new FutureTask<>(() -> client.exchangeUntimed(method, path, json));
    Thread sender = new Thread(request, "couchbench-index-query");
    sender.setDaemon(true);
    sender.start();
    Optional<Duration> limit = client.waits().indexBuild();
    try {
      // Woken for each progress line, so that one is said every 5 s however slow _active_tasks is to answer.
      while (true) {
        long elapsed = System.nanoTime() - start;
        if (limit.isPresent() && elapsed >= limit.get().toNanos()) {
          sender.interrupt(); // the client's send gives the exchange up when interrupted
          throw new CouchDbException(beyond(limit.get()), false);
        }
        long wait = Math.min(nextLine - start - elapsed,
            limit.map(Duration::toNanos).orElse(Long.MAX_VALUE) - elapsed);
        try {
          return request.get(wait, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          if (System.nanoTime() >= nextLine) {
            nextLine += LINE_NANOS;
            Console.say(String.format(Locale.ROOT, "index build: %s: %s(%.1f s)", name(),
                latest >= 0 ? latest + "% " : "building ", (System.nanoTime() - start) / 1e9));
          }
        }
      }
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new CouchDbException("index build: " + name() + ": " + e.getCause(), false);
    } catch (InterruptedException e) {
      sender.interrupt();
      Thread.currentThread().interrupt();
      throw new CouchDbException("interrupted while following the index build of " + name(), false);
    }
  }

  /**
   * What _active_tasks said of the build so far.
   *
   * @return the reads, those that listed the build's indexer, and the highest progress listed
   */
  public Seen seen() {
    return new Seen(samples.get(), samplesSeen.get(), (int) highest.get());
  }

  /** @return the build's progress as _active_tasks last listed it, %; -1 while it has listed none */
  public int progress() {
    return latest;
  }

  /** Stops reading _active_tasks. */
  @Override
  public void close() {
    sampling.interrupt();
  }

  /**
   * What _active_tasks said of a build.
   *
   * @param samples reads of _active_tasks during the build
   * @param samplesSeen those that listed its indexer
   * @param progress the highest progress listed, %; -1 when none was
   */
  public record Seen(int samples, int samplesSeen, int progress) {}

  private String beyond(Duration limit) {
    long seconds = limit.toSeconds();
    return "index build: " + name() + " not answered within " + seconds + " s (-D" + CouchWaits.INDEX_BUILD_SETTING
        + "=" + seconds + (latest >= 0 ? ", the server listed it at " + latest + "%" : "") + "): raise -D"
        + CouchWaits.INDEX_BUILD_SETTING + ", or leave it out to follow the build until it ends";
  }

  private String name() {
    return database + "/" + design;
  }

  private void sample() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        read();
        Thread.sleep(SAMPLE_MILLIS);
      } catch (InterruptedException e) {
        return;
      } catch (OneLineException e) {
        // A read lost is a read less: the build is still followed by its own request.
      }
    }
  }

  // The build's indexer tasks, one per shard in CouchDB 3: their changes done of all, or their progress where the
  // server lists no counts.
  private void read() {
    CouchReply reply = client.get("/_active_tasks");
    samples.incrementAndGet();
    long done = 0;
    long total = 0;
    int progress = -1;
    for (JsonNode task : ReplyJson.of(reply.body())) {
      if (INDEXERS.contains(task.path("type").asText()) && task.path("design_document").asText().equals(design)
          && ofDatabase(task.path("database").asText())) {
        done += task.path("changes_done").asLong(0);
        total += task.path("total_changes").asLong(0);
        progress = Math.max(progress, task.path("progress").asInt(-1));
      }
    }
    if (progress >= 0 || total > 0) {
      samplesSeen.incrementAndGet();
      latest = total > 0 ? (int) Math.min(100, 100 * done / total) : progress;
      highest.accumulateAndGet(Math.max(progress, latest), Math::max);
    }
  }

  // CouchDB 3 names a shard's file, e.g. "shards/00000000-7fffffff/orders.1712345678"; a single node its database.
  private boolean ofDatabase(String listed) {
    return listed.replaceFirst("^shards/[^/]+/", "").replaceFirst("\\.\\d+$", "").equals(database);
  }
}
