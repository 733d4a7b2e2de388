package couchbench.changes;

import java.util.List;

/**
 * What a Changes run's page shows beyond Gatling's entries, as results.json keeps it.
 *
 * @param load the load in words
 * @param writes the writers' figures; null for a catch-up
 * @param feeds each feed's listeners' figures, in the plan's order; none for a catch-up
 * @param catchUp the catch-up's figures; null for writers and listeners
 * @param visibility the lag across nodes; null without -Dvisibility=nodes
 * @param docCount the databases' doc_count added up after the run, -1 where it could not be read
 */
public record ChangesFigures(String load, WriteFigures writes, List<FeedFigures> feeds, CatchUpFigures catchUp,
    VisibilityFigures visibility, long docCount) {

  /**
   * @param pairs every pair of nodes, written through the first and read through the second
   * @param nodes each node's failures and what it missed after the load
   */
  public record VisibilityFigures(List<PairFigures> pairs, List<NodeFigures> nodes) {}

  /**
   * @param from the node written through, from 1
   * @param to the node read through
   * @param seen writes it returned at their revision
   * @param notSeen writes it had not returned -Dquiet seconds after their acknowledgement
   * @param polls reads sent
   * @param lagMicros from each write's acknowledgement to the read that returned it, µs
   */
  public record PairFigures(int from, int to, long seen, long notSeen, long polls, String lagMicros) {}

  /**
   * @param node its number, from 1
   * @param url its URL
   * @param failures requests through it that failed
   * @param firstFailure seconds from the load's start to the first, -1 without any
   * @param lastFailure to the last
   * @param missingAfterwards acknowledged writes its _all_docs did not list after the load, -1 where it was not read
   */
  public record NodeFigures(int node, String url, long failures, double firstFailure, double lastFailure,
      long missingAfterwards) {}

  /**
   * @param documents documents written first, then read
   * @param pageSize rows per page asked
   * @param fillSeconds how long the writing took (unmeasured by Gatling)
   * @param readers each reader's figures
   * @param pageMicros each page's time, from its request to its rows counted, µs
   */
  public record CatchUpFigures(long documents, int pageSize, double fillSeconds, List<ReaderFigures> readers,
      String pageMicros) {}

  /**
   * @param reader its number
   * @param pages pages read
   * @param rows rows read
   * @param missed documents it never saw
   * @param duplicated documents it saw again
   * @param foreign rows of documents the run did not write
   * @param seconds from its first page's request to its last page's end
   */
  public record ReaderFigures(int reader, long pages, long rows, long missed, long duplicated, long foreign,
      double seconds) {}

  /**
   * @param documents documents the writers were to write
   * @param acknowledged writes the server acknowledged (201 or 202, or a _bulk_docs row with its rev)
   * @param failed writes it did not
   * @param seconds from the first write's intended start to the last acknowledgement
   * @param late requests sent more than 2 ms after their intended start
   * @param intendedMicros each request's latency from its intended start, µs
   * @param actualMicros from when it was sent, µs
   */
  public record WriteFigures(long documents, long acknowledged, long failed, double seconds, long late,
      String intendedMicros, String actualMicros) {}

  /**
   * @param feed the feed, e.g. "continuous"
   * @param listeners its listeners
   * @param attached those whose feed opened
   * @param mostConnections the most of its connections open at once
   * @param connectionsOpened its connections opened, reconnections included
   * @param connectionsDropped those that ended before their listener was done
   * @param reconnects times a listener connected again and went on from its last seq
   * @param firstReconnect why the first one did, null without any
   * @param rows rows read, heartbeats not counted
   * @param delivered writes seen for the first time by a listener that should see them, over all listeners
   * @param expected acknowledged writes the listeners should have seen, over all listeners
   * @param missed of those, the ones not seen
   * @param listenersMissing listeners that missed at least one
   * @param duplicated writes seen again without a reconnection
   * @param redelivered writes seen again after a reconnection replayed the feed
   * @param outOfOrder writes seen after a newer write of the same writer
   * @param beforeAck writes seen before their writer had the acknowledgement (timed as 0)
   * @param unexpected writes seen that the listener's filter or database excludes
   * @param foreign rows of documents the run did not write
   * @param fromAckMicros from each write's acknowledgement to each listener's notification, µs (0 before it)
   * @param fromSentMicros from when each write's request was sent to each listener's notification, µs
   */
  public record FeedFigures(String feed, int listeners, int attached, int mostConnections, long connectionsOpened,
      long connectionsDropped, long reconnects, String firstReconnect, long rows, long delivered, long expected,
      long missed, int listenersMissing, long duplicated, long redelivered, long outOfOrder, long beforeAck,
      long unexpected, long foreign, String fromAckMicros, String fromSentMicros) {}
}
