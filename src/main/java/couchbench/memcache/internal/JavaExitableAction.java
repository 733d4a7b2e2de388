package couchbench.memcache.internal;

import com.typesafe.scalalogging.Logger;
import io.gatling.core.action.ExitableAction;
import io.gatling.core.session.Session;
import io.netty.channel.EventLoop;

/**
 * Gatling's {@code ExitableAction} for a Java class. The Scala traits stack their {@code !} methods
 * (exit check, then crash handling, then the hop to the user's event loop) through "super"
 * accessors that scalac writes for Scala classes and javac does not: without the two methods below
 * the first request throws AbstractMethodError. They do what the traits' bodies do (the traits'
 * static helpers are synthetic, out of javac's reach), so tryMax and exitHereIfFailed work. Those
 * bodies are Gatling's internals of the version couchbench is built for: {@link GatlingVersionCheck}
 * stops a run on any other version before the first request.
 */
abstract class JavaExitableAction implements ExitableAction {

  private Logger logger = Logger.apply(getClass());

  // The name is what scalac generates for ExitableAction's call to super.!; do not rename.
  // ChainableAction's !: a crash fails this user's request and moves it on, instead of losing it.
  public void io$gatling$core$action$ExitableAction$$super$$bang(Session session) {
    try {
      io$gatling$core$action$ChainableAction$$super$$bang(session);
    } catch (RuntimeException e) {
      crashed(session, e);
    }
  }

  // The name is what scalac generates for ChainableAction's call to super.!; do not rename.
  // Action's !: run on the virtual user's own event loop.
  public void io$gatling$core$action$ChainableAction$$super$$bang(Session session) {
    EventLoop loop = session.eventLoop();
    if (loop.inEventLoop()) {
      execute(session);
    } else if (!loop.isShutdown()) {
      loop.execute(() -> $bang(session));
    }
  }

  /**
   * The action threw: log it under the request's name, as Gatling's own actions do, and move the
   * user on with its session marked as failed.
   *
   * @param session the user's session
   * @param crash what was thrown
   */
  abstract void crashed(Session session, RuntimeException crash);

  @Override
  public Logger logger() {
    return logger;
  }

  @Override
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger logger) {
    this.logger = logger;
  }
}
