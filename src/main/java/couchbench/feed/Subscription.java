package couchbench.feed;

import java.net.URI;
import java.util.Optional;

/**
 * One listener's side of a feed, for the follower that reads it: where and what to follow, and where each change and
 * each reconnection goes. Called on the listener's own event loop only.
 */
public interface Subscription {

  /** @return the node to follow: its base URL, http or https */
  URI node();

  /** @return what to ask of _changes */
  FeedRequest request();

  /** @return where the feed starts: a seq, "0" or "now" */
  String since();

  /** @return the name of its notifications in Gatling's report, e.g. "notification continuous" */
  String requestName();

  /** The feed is open: a stream's 200 came, or a poll's first reply. Once. */
  void attached();

  /**
   * A change came.
   *
   * @param change the change
   * @param nanos when it came, on System.nanoTime's clock
   * @return when the notification's time in Gatling's report starts (its write's acknowledgement), on the same
   *     clock; -1 to put none in the report
   */
  long notified(Change change, long nanos);

  /**
   * The feed's connection ended before the listener was done: the follower connects again and goes on from the last
   * seq it got.
   *
   * @param why in words, e.g. "the connection was closed"
   */
  void reconnecting(String why);

  /**
   * @param nanos now, on System.nanoTime's clock
   * @return whether the listener is done and the follower stops; asked after each change and every tenth of a second
   */
  boolean done(long nanos);

  /** @return once done: why the listener failed (changes it should have seen and did not), empty when it did not */
  Optional<String> verdict();

  /** @return the name of the report's entry that ends the listener, OK or KO with its verdict */
  default String verdictName() {
    return ChangesFeed.deliveryOf(request().kind());
  }
}
