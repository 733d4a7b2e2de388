package couchbench.bulkinsert;

import java.util.ArrayList;
import java.util.List;

/**
 * A step's progress as the seed plotted it: the documents acknowledged so far against the time since the step's
 * start, one point per reply, at most {@link #MOST_POINTS}: when full, every other point goes and only every second
 * reply after that adds one, so a long step keeps its curve's shape in bounded memory.
 */
final class StepProgress {

  static final int MOST_POINTS = 512;

  private final List<BulkInsertFigures.Point> points = new ArrayList<>();
  private long stride = 1;
  private long replies;

  synchronized void add(long nanosSinceStart, long documentsSoFar) {
    if (replies++ % stride != 0) {
      return;
    }
    points.add(new BulkInsertFigures.Point(nanosSinceStart / 1e9, documentsSoFar));
    if (points.size() == MOST_POINTS) {
      for (int i = 1; i < MOST_POINTS / 2; i++) {
        points.set(i, points.get(2 * i));
      }
      points.subList(MOST_POINTS / 2, MOST_POINTS).clear();
      stride *= 2;
    }
  }

  synchronized List<BulkInsertFigures.Point> points() {
    return List.copyOf(points);
  }

  /**
   * A curve of any length within the same bound, for the chart: every n-th point, evenly spaced, and the last.
   *
   * @param points a curve, in time order
   * @return it, or at most {@link #MOST_POINTS} of its points, its first and last among them
   */
  static List<BulkInsertFigures.Point> thinned(List<BulkInsertFigures.Point> points) {
    if (points.size() <= MOST_POINTS) {
      return List.copyOf(points);
    }
    int every = (points.size() - 2) / (MOST_POINTS - 1) + 1;
    List<BulkInsertFigures.Point> kept = new ArrayList<>();
    for (int i = 0; i < points.size() - 1; i += every) {
      kept.add(points.get(i));
    }
    kept.add(points.get(points.size() - 1));
    return List.copyOf(kept);
  }
}
