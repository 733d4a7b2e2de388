package couchbench.feed;

import io.gatling.core.action.Action;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.netty.util.Transports;
import java.util.Objects;
import java.util.function.Function;

/**
 * CouchDB's changes feed in Gatling's Java DSL: {@code exec(ChangesFeed.follow(session -> subscription)
 * .target(target).connections(tally))} makes a virtual user follow a feed until its subscription is done. Gatling's
 * HTTP client reads a response whole, which a feed that streams never is: this reads it on Netty, on the user's event
 * loop, as it comes. An immutable builder: each method returns a new one.
 */
public final class ChangesFeed implements ActionBuilder {

  private final Function<Session, Subscription> subscriptions;
  private final FeedTarget target;
  private final FeedConnections connections;

  private ChangesFeed(Function<Session, Subscription> subscriptions, FeedTarget target, FeedConnections connections) {
    this.subscriptions = subscriptions;
    this.target = target;
    this.connections = connections;
  }

  /**
   * @param subscriptions gives each virtual user its listener's subscription, from its session
   * @return the builder, without a target yet
   */
  public static ChangesFeed follow(Function<Session, Subscription> subscriptions) {
    return new ChangesFeed(subscriptions, null, new FeedConnections());
  }

  /**
   * @param kind a feed
   * @return the name of the report's entry that ends each listener of it: OK, or KO with what it missed
   */
  public static String deliveryOf(FeedKind kind) {
    return "delivery " + kind.value();
  }

  /**
   * @param target how the listeners reach CouchDB (login, TLS)
   * @return a builder with it
   */
  public ChangesFeed target(FeedTarget target) {
    return new ChangesFeed(subscriptions, target, connections);
  }

  /**
   * @param tally where the listeners' connections are counted
   * @return a builder with it
   */
  public ChangesFeed connections(FeedConnections tally) {
    return new ChangesFeed(subscriptions, target, tally);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    FeedTarget given = Objects.requireNonNull(target, "ChangesFeed.follow(...).target(...) is missing");
    return new io.gatling.core.action.builder.ActionBuilder() {
      @Override
      public Action build(ScenarioContext ctx, Action next) {
        var netty = ctx.coreComponents().configuration().netty();
        return new FeedAction("changes feed", subscriptions, given, connections, ctx.coreComponents().statsEngine(),
            ctx.coreComponents().clock(), Transports.newSocketChannelFactory(netty.useNativeTransport(),
                netty.useIoUring()), next);
      }
    };
  }
}
