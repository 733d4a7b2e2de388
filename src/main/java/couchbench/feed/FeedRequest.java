package couchbench.feed;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a listener asks of a database's _changes, whatever its since: the feed and its options as CouchDB documents
 * them, and a filter. A filter goes in a POST body ({"selector": ...} or {"doc_ids": [...]}), as CouchDB takes
 * _selector and _doc_ids.
 *
 * @param database the database's name
 * @param kind the feed
 * @param heartbeat how often the server says it is there while nothing changes (streams and longpoll)
 * @param includeDocs whether each row carries its document
 * @param seqInterval with more than 1, the server gives a seq only every that many rows (the others null)
 * @param pollTimeout how long a longpoll waits for a change before it answers empty
 * @param pollInterval the pause between two polls of the normal feed
 * @param selector a Mango selector, as JSON, for filter=_selector
 * @param docIds the ids of filter=_doc_ids
 */
public record FeedRequest(String database, FeedKind kind, Duration heartbeat, boolean includeDocs, int seqInterval,
    Duration pollTimeout, Duration pollInterval, Optional<String> selector, List<String> docIds) {

  /**
   * @param since where the feed starts: a seq, "0" or "now"
   * @param first whether it is a poll's first request: it asks the normal feed, which answers at once, so that the
   *     listener has its place before the writes start ("now" resolved to a seq)
   * @return the request's path and query
   */
  public String path(String since, boolean first) {
    boolean resolveOnly = first && !kind.streams();
    StringBuilder path = new StringBuilder("/").append(encode(database)).append("/_changes?feed=")
        .append(resolveOnly ? FeedKind.NORMAL.value() : kind.value()).append("&since=").append(encode(since));
    if (resolveOnly && since.equals("now")) {
      path.append("&limit=0");
    }
    if (kind.streams() || (kind == FeedKind.LONGPOLL && !resolveOnly)) {
      path.append("&heartbeat=").append(heartbeat.toMillis());
    }
    if (kind == FeedKind.LONGPOLL && !resolveOnly) {
      path.append("&timeout=").append(pollTimeout.toMillis());
    }
    if (includeDocs) {
      path.append("&include_docs=true");
    }
    if (seqInterval > 1) {
      path.append("&seq_interval=").append(seqInterval);
    }
    if (selector.isPresent()) {
      path.append("&filter=_selector");
    } else if (!docIds.isEmpty()) {
      path.append("&filter=_doc_ids");
    }
    return path.toString();
  }

  /** @return the POST body a filter needs; empty for a GET */
  public Optional<String> body() {
    if (selector.isPresent()) {
      return Optional.of("{\"selector\":" + selector.get() + "}");
    }
    if (!docIds.isEmpty()) {
      return Optional.of(docIds.stream().map(id -> "\"" + id.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
          .collect(Collectors.joining(",", "{\"doc_ids\":[", "]}")));
    }
    return Optional.empty();
  }

  /** @return the filter in words, e.g. "_selector {...}", or "none" */
  public String describeFilter() {
    return selector.map(json -> "_selector " + json)
        .orElse(docIds.isEmpty() ? "none" : "_doc_ids (" + docIds.size() + " ids)");
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
