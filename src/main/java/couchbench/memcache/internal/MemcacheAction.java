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
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import scala.Option;
import scala.Tuple2;
import scala.collection.immutable.List;

/**
 * Sends one memcache request for a virtual user and reports it to Gatling's stats engine like any
 * HTTP request: timed from send to reply, OK or KO with a grouped message, checks applied.
 */
final class MemcacheAction extends JavaExitableAction {

  private final String name;
  private final Function<io.gatling.javaapi.core.Session, String> requestName;
  private final MemcacheCommand command;
  private final MemcacheActionSettings settings;
  private final List<Check<MemcacheReply>> checks;
  private final boolean defaultExpectation;
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
    this.components = components;
    this.next = next;
  }

  @Override
  public void execute(Session session) {
    io.gatling.javaapi.core.Session javaSession = new io.gatling.javaapi.core.Session(session);
    String request;
    MemcacheRequest built;
    try {
      request = requestName.apply(javaSession);
    } catch (RuntimeException e) {
      failToBuild(session, name, e);
      return;
    }
    try {
      built = command.resolve(javaSession);
    } catch (RuntimeException e) {
      failToBuild(session, request, e);
      return;
    }
    MemcacheComponents.ConnectionsInSession user = components.connections(session);
    long start = clock().nowMillis();
    long startNanos = System.nanoTime();
    user.connections()
        .send(built)
        .whenComplete(
            (reply, error) -> {
              long nanos = System.nanoTime() - startNanos;
              long end = clock().nowMillis();
              if (error != null) {
                finish(user.session(), request, start, end, nanos, null, failureMessage(error));
              } else {
                judge(user.session(), request, built, reply, start, end, nanos);
              }
            });
  }

  private void judge(Session session, String request, MemcacheRequest built, MemcacheReply reply,
      long start, long end, long nanos) {
    Optional<String> unexpected =
        defaultExpectation
            ? ReplyExpectation.failure(built, reply, settings.missOk())
            : Optional.empty();
    Tuple2<Session, Option<Failure>> checked = Check$.MODULE$.check(reply, session, checks, null);
    Optional<String> failure =
        unexpected.or(() -> checked._2().isDefined()
            ? Optional.of(checked._2().get().message())
            : Optional.empty());
    finish(checked._1(), request, start, end, nanos, ReplyForGatling.responseCode(reply), failure.orElse(null));
  }

  private void finish(Session session, String request, long start, long end, long nanos, String code,
      String failure) {
    components.timings().record(request, failure == null, nanos);
    Status status = failure == null ? OK$.MODULE$ : KO$.MODULE$;
    ResponseLog.log(statsEngine(), session, request, start, end, status, Option.apply(code), Option.apply(failure));
    Session timed = session.logGroupRequestTimings(start, end);
    next.$bang(failure == null ? timed : timed.markAsFailed());
  }

  private void failToBuild(Session session, String request, RuntimeException e) {
    logger().underlying().error("'{}' failed to build its request: {}", request, e.getMessage());
    statsEngine().logRequestCrash(session.scenario(), session.groups(), request, e.getMessage());
    next.$bang(session.markAsFailed());
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
