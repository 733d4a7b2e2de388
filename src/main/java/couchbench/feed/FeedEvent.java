package couchbench.feed;

/** What {@link FeedDecoder} reads from a _changes response, in order. */
public sealed interface FeedEvent {

  /**
   * The response's head.
   *
   * @param status its HTTP status
   * @param contentType its Content-Type, "" for none
   * @param keepAlive whether the connection stays open after the response (a poll's next request may use it)
   */
  record Opened(int status, String contentType, boolean keepAlive) implements FeedEvent {}

  /** @param change a change, as it came */
  record Row(Change change) implements FeedEvent {}

  /** A heartbeat: the server is there, with nothing to tell. */
  record Heartbeat() implements FeedEvent {}

  /**
   * The end of a response that the server ended: a poll's reply, or a stream the server closed in order.
   *
   * @param lastSeq the sequence to go on from, as the server gave it; null where it gave none
   */
  record Ended(String lastSeq) implements FeedEvent {}

  /**
   * A reply other than 200, read whole.
   *
   * @param status its HTTP status
   * @param body its body's start, for the message
   */
  record Refused(int status, String body) implements FeedEvent {}
}
