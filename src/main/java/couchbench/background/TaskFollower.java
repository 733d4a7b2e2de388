package couchbench.background;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.ReplyJson;
import couchbench.startup.OneLineException;
import couchbench.startup.RunClock;
import couchbench.targets.CouchTarget;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * What every kind of background task is followed with: the work's own client, a read every 100 ms until the task has
 * ended or -DbackgroundTimeout, each read stamped on the run's clock; a request CouchDB answers once its work is done,
 * sent aside and awaited; a refusal said in words; what a task leaves behind removed whatever happened to it.
 */
final class TaskFollower {

  private static final long READ_MILLIS = 100;

  private final CouchTarget target;
  private final CouchDbClient client;
  private final Duration timeout;
  private final Consumer<String> say;

  /**
   * @param target the CouchDB loaded
   * @param timeout the longest a task is followed
   * @param say where a line goes (the console)
   */
  TaskFollower(CouchTarget target, Duration timeout, Consumer<String> say) {
    this.target = target;
    this.client = new CouchDbClient(target);
    this.timeout = timeout;
    this.say = say;
  }

  /** @return the client of the background work, none of whose requests is one of the load's */
  CouchDbClient client() {
    return client;
  }

  /** @return -DbackgroundTimeout: the longest a task is followed, and a request of it awaited */
  Duration timeout() {
    return timeout;
  }

  /** @return the timeout from now, on System.nanoTime's clock: a deadline for a task of several steps */
  long deadline() {
    return System.nanoTime() + timeout.toNanos();
  }

  /**
   * How a request CouchDB answers once its work is done ended.
   *
   * @param end when it was seen to end, on the run's clock (epoch milliseconds); -1 when it did not
   * @param problem why it did not; null when it ended
   * @param loadEnded whether the load ended while it was followed: the thread's interrupt, kept aside while the task is
   *     cleaned up
   */
  record Awaited(long end, String problem, boolean loadEnded) {}

  /**
   * Sends the request aside and follows the task until it is answered; a 200 or 201 ends the task.
   *
   * @param request the request
   * @param progress where each read goes
   * @param read one read: the task's progress (%), -1 where it was not seen
   * @return how it ended
   */
  Awaited awaited(Supplier<CouchReply> request, List<BackgroundTask.Progress> progress, IntSupplier read) {
    CompletableFuture<String> answered = CompletableFuture.supplyAsync(() -> refusal(request, 200, 201))
        .exceptionally(failure -> "failed: " + failure.getMessage());
    String problem = follow(progress, read, answered::isDone);
    boolean loadEnded = Thread.interrupted();
    if (problem == null) {
      problem = answered.join();
    }
    return new Awaited(problem == null ? lastRead(progress) : -1, problem, loadEnded);
  }

  /**
   * Removes what a task leaves behind whatever happened to it, with a line when it cannot; the load's interrupt is put
   * back afterwards.
   *
   * @param what it in words, e.g. "the copy orders_background_replica_1"
   * @param removal its removal
   * @param awaited how the task ended
   */
  void cleanUp(String what, Runnable removal, Awaited awaited) {
    try {
      removal.run();
    } catch (OneLineException e) {
      say.accept("background: " + what + " could not be removed: " + e.getMessage());
    } finally {
      if (awaited.loadEnded()) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * One read of _active_tasks.
   *
   * @param percent the task's progress in an _active_tasks entry, -1 for another's
   * @return the read: the task's progress, -1 where it was not listed
   */
  IntSupplier activeTask(ToIntFunction<JsonNode> percent) {
    return () -> {
      int seen = -1;
      try {
        for (JsonNode task : ReplyJson.of(client.get("/_active_tasks").body())) {
          seen = Math.max(seen, percent.applyAsInt(task));
        }
      } catch (OneLineException e) {
        seen = -1; // _active_tasks unread (a user who may not read it): the task's own end still counts
      }
      return seen;
    };
  }

  /**
   * Reads every 100 ms until the task has ended or the timeout.
   *
   * @param progress where each read goes
   * @param read one read: the task's progress (%), -1 where it was not seen
   * @param ended whether it has ended, asked after each read
   * @return null when it ended; else why not
   */
  String follow(List<BackgroundTask.Progress> progress, IntSupplier read, BooleanSupplier ended) {
    return follow(progress, read, ended, deadline());
  }

  /**
   * The same until a deadline of the caller's, for a task of several steps (a database, then its views).
   *
   * @param deadline when it is no longer followed, on System.nanoTime's clock ({@link #deadline})
   */
  String follow(List<BackgroundTask.Progress> progress, IntSupplier read, BooleanSupplier ended, long deadline) {
    while (System.nanoTime() - deadline < 0) {
      int percent = read.getAsInt();
      progress.add(new BackgroundTask.Progress(RunClock.millis(), percent)); // when the read was answered
      if (hasEnded(ended)) {
        return null;
      }
      try {
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
        Thread.sleep(READ_MILLIS);
      } catch (InterruptedException loadEnded) {
        Thread.currentThread().interrupt(); // the next task is not started
        return "the load ended before it did";
      }
    }
    return "did not end within -DbackgroundTimeout=" + timeout.toSeconds() + " s: left to the server";
  }

  private static boolean hasEnded(BooleanSupplier ended) {
    try {
      return ended.getAsBoolean();
    } catch (OneLineException e) {
      return false;
    }
  }

  /**
   * @param progress the reads of a task, at least one
   * @return when the last was answered, on the run's clock
   */
  static long lastRead(List<BackgroundTask.Progress> progress) {
    return progress.get(progress.size() - 1).epochMillis();
  }

  /**
   * @param name a database
   * @return its file on disk, bytes; -1 where the server does not say
   */
  long fileBytes(String name) {
    try {
      return client.databaseInfo(name).fileSize().orElse(-1);
    } catch (OneLineException | IllegalArgumentException e) {
      return -1;
    }
  }

  /**
   * @param request a request of the task
   * @param expected the statuses it is answered with when the server does it
   * @return null when the server answered as expected; else the refusal in words
   */
  String refusal(Supplier<CouchReply> request, int... expected) {
    try {
      CouchReply reply = request.get();
      for (int status : expected) {
        if (reply.status() == status) {
          return null;
        }
      }
      return "refused: " + reply.status() + " " + reply.reason();
    } catch (CouchDbException e) {
      // The login worked for the load: a refusal here is of what the user may do, not of who it is.
      return "refused: " + (e.isAuthFailure() ? target.credentials().map(login -> "user '" + login.user() + "' is not"
          + " a server admin").orElse("no login given") + ", and background work needs one: give -Dcouchdb.user an"
          + " admin's name; the load goes on" : e.getMessage());
    }
  }
}
