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

  /** One point: seconds since the step's start, documents acknowledged by then. */
  record Point(double seconds, long documents) {}

  private final List<Point> points = new ArrayList<>();
  private long stride = 1;
  private long replies;

  synchronized void add(long nanosSinceStart, long documentsSoFar) {
    if (replies++ % stride != 0) {
      return;
    }
    points.add(new Point(nanosSinceStart / 1e9, documentsSoFar));
    if (points.size() == MOST_POINTS) {
      for (int i = 1; i < MOST_POINTS / 2; i++) {
        points.set(i, points.get(2 * i));
      }
      points.subList(MOST_POINTS / 2, MOST_POINTS).clear();
      stride *= 2;
    }
  }

  synchronized List<Point> points() {
    return List.copyOf(points);
  }
}
