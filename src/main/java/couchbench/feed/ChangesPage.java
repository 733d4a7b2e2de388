package couchbench.feed;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One page of a normal feed read with limit: its rows and the seq to ask the next page from. A reader catching up
 * from 0 asks page after page until one comes back with fewer rows than its limit.
 *
 * @param rows the page's changes, in order
 * @param lastSeq the seq to go on from
 */
public record ChangesPage(List<Change> rows, String lastSeq) {

  /**
   * @param body a normal feed's reply, {"results":[...],"last_seq":...}
   * @return the page
   * @throws IOException when it is not such a reply
   */
  public static ChangesPage parse(byte[] body) throws IOException {
    List<Object> events = new ArrayList<>();
    ChangeRows.poll(new ByteArrayInputStream(body), events);
    List<Change> rows = new ArrayList<>(events.size());
    String lastSeq = null;
    for (Object event : events) {
      if (event instanceof FeedEvent.Row row) {
        rows.add(row.change());
      } else if (event instanceof FeedEvent.Ended end) {
        lastSeq = end.lastSeq();
      }
    }
    if (lastSeq == null) {
      throw new IOException("a page without last_seq");
    }
    return new ChangesPage(rows, lastSeq);
  }
}
