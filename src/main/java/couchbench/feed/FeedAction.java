package couchbench.feed;

import com.typesafe.scalalogging.Logger;
import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.util.Clock;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import java.util.Optional;
import java.util.function.Function;
import scala.Option;

/**
 * A virtual user follows its feed until its subscription says it is done, then goes on to the next action. Each
 * notification is an OK entry of the run's report, timed from the subscription's start (its write's acknowledgement)
 * to its arrival; the end is one more entry, "delivery FEED", KO when the listener missed changes.
 */
final class FeedAction implements Action {

  private final String name;
  private final Function<io.gatling.javaapi.core.Session, Subscription> subscriptions;
  private final FeedTarget target;
  private final FeedConnections connections;
  private final StatsEngine stats;
  private final Clock clock;
  private final ChannelFactory<? extends Channel> channelFactory;
  private final Action next;
  private Logger logger = Logger.apply(getClass());

  FeedAction(String name, Function<io.gatling.javaapi.core.Session, Subscription> subscriptions, FeedTarget target,
      FeedConnections connections, StatsEngine stats, Clock clock, ChannelFactory<? extends Channel> channelFactory,
      Action next) {
    this.name = name;
    this.subscriptions = subscriptions;
    this.target = target;
    this.connections = connections;
    this.stats = stats;
    this.clock = clock;
    this.channelFactory = channelFactory;
    this.next = next;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void execute(Session session) {
    Subscription subscription = subscriptions.apply(new io.gatling.javaapi.core.Session(session));
    boolean[] failed = new boolean[1];
    FeedFollower.Entries entries = new FeedFollower.Entries() {
      @Override
      public void ok(String request, long startNanos, long endNanos) {
        stats.logResponse(session.scenario(), session.groups(), request, millis(startNanos), millis(endNanos),
            OK$.MODULE$, Option.empty(), Option.empty());
      }

      @Override
      public void verdict(Optional<String> failure) {
        // Of no duration: the listener's whole life would read as a response time in Gatling's statistics.
        long ended = System.nanoTime();
        failed[0] = failure.isPresent();
        stats.logResponse(session.scenario(), session.groups(),
            subscription.verdictName(), millis(ended), millis(ended),
            failure.isPresent() ? KO$.MODULE$ : OK$.MODULE$, Option.empty(), Option.apply(failure.orElse(null)));
      }
    };
    new FeedFollower(subscription, target, session.eventLoop(), channelFactory, connections, entries,
        () -> next.$bang(failed[0] ? session.markAsFailed() : session)).start();
  }

  /** A moment on System.nanoTime's clock, on Gatling's clock (epoch milliseconds). */
  private long millis(long nanos) {
    return clock.nowMillis() - (System.nanoTime() - nanos) / 1_000_000;
  }

  @Override
  public Logger logger() {
    return logger;
  }

  @Override
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger logger) {
    this.logger = logger;
  }
}
