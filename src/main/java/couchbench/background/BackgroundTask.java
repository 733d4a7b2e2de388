package couchbench.background;

import java.util.List;

/**
 * One background task as it ran: when, how far _active_tasks showed it, what it did on disk, and how it ended.
 *
 * @param kind what it was
 * @param what it in words, e.g. "POST /orders/_compact"
 * @param startMillis when it was started, on the run's clock (couchbench.startup.RunClock: epoch milliseconds)
 * @param endMillis when it was seen to end, on the run's clock; -1 when it did not end while followed
 * @param progress each read of _active_tasks: when, and the task's progress there (%), -1 where it was not listed
 * @param bytesBefore the database's file (compact) or the view index (viewbuild) on disk before, bytes; -1 unknown
 * @param bytesAfter the same after
 * @param problem why it did not run or end: refused, timed out, the load ended first; null when it ended
 * @param backMillis nodesync: when the restarted node answered again, on the run's clock, which splits the task into
 *     the node's time away and its catch-up; -1 for the other tasks, or a node that did not answer again
 * @param detail what the task did beyond the columns, in words (nodesync: the node, how long away, how far behind);
 *     null for none
 */
public record BackgroundTask(BackgroundPlan.Kind kind, String what, long startMillis, long endMillis,
    List<Progress> progress, long bytesBefore, long bytesAfter, String problem, long backMillis, String detail) {

  /** A task without a node's return to mark: compact, viewbuild, replicate. */
  public BackgroundTask(BackgroundPlan.Kind kind, String what, long startMillis, long endMillis,
      List<Progress> progress, long bytesBefore, long bytesAfter, String problem) {
    this(kind, what, startMillis, endMillis, progress, bytesBefore, bytesAfter, problem, -1, null);
  }

  /**
   * A read of _active_tasks.
   *
   * @param epochMillis when, on the run's clock
   * @param percent the task's progress, -1 when _active_tasks did not list it (nodesync: its copies were not read)
   */
  public record Progress(long epochMillis, int percent) {}

  /** @return when it ended; one that did not end ran at least until its last read; one refused, its start */
  public long ranUntilMillis() {
    return endMillis >= 0 ? endMillis
        : progress.isEmpty() ? startMillis : progress.get(progress.size() - 1).epochMillis();
  }

  /** @return how many reads of _active_tasks listed it */
  public long seen() {
    return progress.stream().filter(read -> read.percent() >= 0).count();
  }
}
