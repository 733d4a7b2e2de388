package couchbench.feed;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The feeds CouchDB's _changes offers, by their feed= value. */
public enum FeedKind {
  /** One JSON row per line on a response that stays open; a heartbeat is an empty line. */
  CONTINUOUS,
  /** Server-sent events on a response that stays open: data: ROW, id: SEQ; heartbeats are their own event. */
  EVENTSOURCE,
  /** One response a poll, held open until a change comes or its timeout passes. */
  LONGPOLL,
  /** One response a poll, answered at once: a client polls it at an interval. */
  NORMAL;

  /** @return its feed= value, e.g. "continuous" */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return whether one response carries the changes as they come (continuous, eventsource), not a poll's batch */
  public boolean streams() {
    return this == CONTINUOUS || this == EVENTSOURCE;
  }

  /**
   * @param value a feed= value, e.g. from -Dfeed
   * @return the kind
   * @throws IllegalArgumentException naming the kinds there are, when it is none of them
   */
  public static FeedKind of(String value) {
    return Arrays.stream(values()).filter(kind -> kind.value().equals(value.trim().toLowerCase(Locale.ROOT)))
        .findFirst().orElseThrow(() -> new IllegalArgumentException("no feed " + value + ": CouchDB's feeds are "
            + Arrays.stream(values()).map(FeedKind::value).collect(Collectors.joining(", "))));
  }
}
