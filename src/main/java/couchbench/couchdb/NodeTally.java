package couchbench.couchdb;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What one node of a cluster answered during the load, counted on the requests' path: replies by kind, the times of
 * the 2xx ones, requests that got no reply, and when the node stopped answering and when it answered again.
 */
public final class NodeTally {

  private final String url;
  private final Histogram okNanos = new Histogram(3);
  private long ok;
  private long accepted;
  private long failed;
  private long noReply;
  private long firstMillis = Long.MAX_VALUE;
  private long lastMillis;
  private final List<long[]> outages = new ArrayList<>();
  private boolean down;

  NodeTally(String url) {
    this.url = url;
  }

  /**
   * A node's figures at the end of the load.
   *
   * @param url the node's base URL
   * @param ok 2xx replies but 202
   * @param accepted 202 Accepted: stored, but fewer copies than the quorum confirmed it
   * @param failed replies of status 400 or more, and requests without a reply
   * @param noReply of the failed, those without a reply (the node down, a connection cut)
   * @param firstMillis when its first request was sent (epoch ms); 0 when it got none
   * @param lastMillis when its last reply came or its last request failed
   * @param okNanos the 2xx replies' times (202 included), in nanoseconds
   * @param outages each time the node stopped answering: {from, until} in epoch ms, until 0 when it did not answer
   *     again before the load ended
   */
  public record Figures(String url, long ok, long accepted, long failed, long noReply, long firstMillis,
      long lastMillis, Histogram okNanos, List<long[]> outages) {

    /** @return every request sent to the node */
    public long requests() {
      return ok + accepted + failed;
    }
  }

  synchronized void replied(int status, long nanos, long atMillis) {
    if (status == 202) {
      accepted++;
    } else if (status >= 400) {
      failed++;
    } else {
      ok++;
    }
    if (status < 400) {
      okNanos.recordValue(Math.max(nanos, 0));
    }
    if (down) {
      down = false;
      outages.get(outages.size() - 1)[1] = atMillis;
    }
    lastMillis = Math.max(lastMillis, atMillis);
  }

  synchronized void noReply(long atMillis) {
    failed++;
    noReply++;
    if (!down) {
      down = true;
      outages.add(new long[] {atMillis, 0});
    }
    lastMillis = Math.max(lastMillis, atMillis);
  }

  synchronized void sent(long atMillis) {
    firstMillis = Math.min(firstMillis, atMillis);
  }

  /** @return the figures so far */
  public synchronized Figures figures() {
    return new Figures(url, ok, accepted, failed, noReply, firstMillis == Long.MAX_VALUE ? 0 : firstMillis,
        lastMillis, okNanos.copy(), outages.stream().map(long[]::clone).toList());
  }
}
