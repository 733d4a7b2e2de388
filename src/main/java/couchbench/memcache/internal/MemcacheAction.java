package couchbench.memcache.internal;

import couchbench.memcache.client.MemcacheFailure;
import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.commons.util.Clock;
import io.gatling.commons.validation.Failure;
import io.gatling.core.action.Action;
import io.gatling.core.check.Check;
import io.gatling.core.check.Check$;
import io.gatling.core.session.Block;
import io.gatling.core.session.GroupBlock;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import scala.Option;
import scala.Tuple2;

/**
 * Sends a virtual user's memcache request, or with a pipelined action several at once, and reports
 * each to Gatling's stats engine like any HTTP request: timed from send to reply, OK or KO with a
 * grouped message, checks applied.
 */
final class MemcacheAction extends JavaExitableAction {

  private final String name;
  private final Function<io.gatling.javaapi.core.Session, String> requestName;
  private final MemcacheCommand command;
  private final MemcacheActionSettings settings;
  private final scala.collection.immutable.List<Check<MemcacheReply>> checks;
  private final boolean defaultExpectation;
  private final int depth;
  private final Function<io.gatling.javaapi.core.Session, io.gatling.javaapi.core.Session> each;
  private final MemcacheComponents components;
  private final Action next;

  MemcacheAction(String name, MemcacheActionSettings settings, MemcacheComponents components,
      Action next) {
    this.name = name;
    this.requestName = settings.requestName();
    this.command = settings.command();
    this.settings = settings;
    this.checks = MemcacheChecks.build(settings.checks());
    this.defaultExpectation = settings.defaultExpectation();
    this.depth = settings.depth();
    this.each = settings.each();
    this.components = components;
    this.next = next;
  }

  @Override
  public void execute(Session session) {
    if (depth > 1) {
      executePipelined(session);
      return;
    }
    io.gatling.javaapi.core.Session javaSession;
    String request;
    MemcacheRequest built;
    try {
      javaSession = each.apply(new io.gatling.javaapi.core.Session(session));
    } catch (RuntimeException e) {
      failToBuild(session, name, e);
      next.$bang(session.markAsFailed());
      return;
    }
    try {
      request = requestName.apply(javaSession);
    } catch (RuntimeException e) {
      failToBuild(session, name, e);
      next.$bang(session.markAsFailed());
      return;
    }
    try {
      built = command.resolve(javaSession);
    } catch (RuntimeException e) {
      failToBuild(session, request, e);
      next.$bang(session.markAsFailed());
      return;
    }
    MemcacheComponents.ConnectionsInSession user = components.connections(javaSession.asScala());
    long start = clock().nowMillis();
    long startNanos = System.nanoTime();
    user.connections()
        .send(built)
        .whenComplete(
            (reply, error) -> {
              long nanos = System.nanoTime() - startNanos;
              long end = clock().nowMillis();
              Outcome outcome = outcome(user.session(), built, reply, error);
              log(outcome, request, start, end, nanos);
              Session timed = timedInGroups(outcome.session(), start, end);
              next.$bang(outcome.failure() == null ? timed : timed.markAsFailed());
            });
  }

  /**
   * The action's depth of requests at once, each built and checked from its own turn of the session, sent in one
   * write; each reply is logged as it comes, and the user goes on, with the session it came with, once all are in.
   */
  private void executePipelined(Session session) {
    MemcacheComponents.ConnectionsInSession user = components.connections(session);
    PipelinedRound round = new PipelinedRound(user.session(), depth);
    List<Session> sessions = new ArrayList<>(depth);
    List<String> names = new ArrayList<>(depth);
    List<MemcacheRequest> requests = new ArrayList<>(depth);
    for (int i = 0; i < depth; i++) {
      io.gatling.javaapi.core.Session own;
      String request = name;
      try {
        own = each.apply(new io.gatling.javaapi.core.Session(user.session()));
        request = requestName.apply(own);
        requests.add(command.resolve(own));
      } catch (RuntimeException e) {
        failToBuild(session, request, e);
        round.notSent();
        continue;
      }
      sessions.add(own.asScala());
      names.add(request);
    }
    long start = clock().nowMillis();
    long startNanos = System.nanoTime();
    List<CompletableFuture<MemcacheReply>> replies = user.connections().sendAll(requests);
    for (int i = 0; i < replies.size(); i++) {
      Session own = sessions.get(i);
      String request = names.get(i);
      MemcacheRequest built = requests.get(i);
      replies.get(i).whenComplete((reply, error) -> {
        long nanos = System.nanoTime() - startNanos;
        long end = clock().nowMillis();
        Outcome outcome = outcome(own, built, reply, error);
        log(outcome, request, start, end, nanos);
        round.answered(start, end, outcome.failure() != null);
      });
    }
  }

  /**
   * The request's time added to the user's groups. Gatling's own method copies the block stack and the session when
   * the user is in any block, a loop too (2% of MemGet's CPU at pipeline 1, in a loop and no group): only a group
   * takes the time.
   */
  private static Session timedInGroups(Session session, long start, long end) {
    scala.collection.Iterator<Block> blocks = session.blockStack().iterator();
    while (blocks.hasNext()) {
      if (blocks.next() instanceof GroupBlock) {
        return session.logGroupRequestTimings(start, end);
      }
    }
    return session;
  }

  /** What became of one request: the session its checks left, and why it failed (null when it did not). */
  private record Outcome(Session session, String code, String failure) {}

  private Outcome outcome(Session session, MemcacheRequest built, MemcacheReply reply, Throwable error) {
    if (error != null) {
      return new Outcome(session, null, failureMessage(error));
    }
    Optional<String> unexpected =
        defaultExpectation
            ? ReplyExpectation.failure(built, reply, settings.missOk())
            : Optional.empty();
    Tuple2<Session, Option<Failure>> checked = Check$.MODULE$.check(reply, session, checks, null);
    Optional<String> failure =
        unexpected.or(() -> checked._2().isDefined()
            ? Optional.of(checked._2().get().message())
            : Optional.empty());
    return new Outcome(checked._1(), ReplyForGatling.responseCode(reply), failure.orElse(null));
  }

  private void log(Outcome outcome, String request, long start, long end, long nanos) {
    components.timings().record(request, outcome.failure() == null, nanos);
    Status status = outcome.failure() == null ? OK$.MODULE$ : KO$.MODULE$;
    ResponseLog.log(statsEngine(), outcome.session(), request, start, end, status, Option.apply(outcome.code()),
        Option.apply(outcome.failure()));
    components.logProtocolErrors(outcome.session());
  }

  /**
   * One pipelined run of the action: counts its answers, folds each request's time into the user's groups, and
   * moves the user on after the last. Replies of several servers may complete on several event loops.
   */
  private final class PipelinedRound {

    private Session session;
    private int outstanding;
    private boolean failed;

    PipelinedRound(Session session, int requests) {
      this.session = session;
      this.outstanding = requests;
    }

    /** A request that could not be built: failed, with no time of its own. */
    void notSent() {
      count(true, -1, -1);
    }

    void answered(long start, long end, boolean failure) {
      count(failure, start, end);
    }

    /** @param start the request's start, -1 for one never sent */
    private void count(boolean failure, long start, long end) {
      Session done;
      synchronized (this) {
        if (start >= 0) {
          session = timedInGroups(session, start, end);
        }
        failed |= failure;
        if (--outstanding > 0) {
          return;
        }
        done = failed ? session.markAsFailed() : session;
      }
      next.$bang(done);
    }
  }

  private void failToBuild(Session session, String request, RuntimeException e) {
    logger().underlying().error("'{}' failed to build its request: {}", request, e.getMessage());
    statsEngine().logRequestCrash(session.scenario(), session.groups(), request, e.getMessage());
  }

  /** The request name, as the report shows it; the action's name when the name itself cannot be resolved. */
  private String requestNameOf(Session session) {
    try {
      return requestName.apply(new io.gatling.javaapi.core.Session(session));
    } catch (RuntimeException e) {
      return name;
    }
  }

  @Override
  void crashed(Session session, RuntimeException crash) {
    String request = requestNameOf(session);
    logger().underlying().error("'" + request + "' crashed with '" + crash.getMessage() + "', forwarding to the next one",
        crash);
    statsEngine().logRequestCrash(session.scenario(), session.groups(), request, "crashed: " + crash.getMessage());
    next.$bang(session.markAsFailed());
  }

  private static String failureMessage(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    return cause instanceof MemcacheFailure ? cause.getMessage() : cause.getClass().getSimpleName()
        + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Action next() {
    return next;
  }

  @Override
  public StatsEngine statsEngine() {
    return components.core().statsEngine();
  }

  @Override
  public Clock clock() {
    return components.core().clock();
  }
}
