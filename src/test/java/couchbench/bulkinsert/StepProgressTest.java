package couchbench.bulkinsert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StepProgressTest {

  @Test
  void shouldKeepEveryReplyOfAShortStep() {
    StepProgress progress = new StepProgress();
    for (int reply = 1; reply <= 3; reply++) {
      progress.add(reply * 1_000_000_000L, reply * 1024L);
    }

    assertEquals(List.of(new BulkInsertFigures.Point(1, 1024), new BulkInsertFigures.Point(2, 2048),
        new BulkInsertFigures.Point(3, 3072)), progress.points());
  }

  @Test
  void shouldThinALongStepToBoundedEvenlySpacedPoints() {
    StepProgress progress = new StepProgress();
    int replies = 100_000;
    for (int reply = 0; reply < replies; reply++) {
      progress.add(reply * 1_000_000L, reply + 1);
    }

    List<BulkInsertFigures.Point> points = progress.points();
    assertTrue(points.size() <= StepProgress.MOST_POINTS && points.size() >= StepProgress.MOST_POINTS / 2,
        "bounded: " + points.size());
    assertEquals(new BulkInsertFigures.Point(0, 1), points.get(0), "the first reply stays");
    long gap = points.get(1).documents() - points.get(0).documents();
    for (int i = 1; i < points.size(); i++) {
      assertEquals(gap, points.get(i).documents() - points.get(i - 1).documents(), "evenly spaced at " + i);
    }
    assertTrue(points.get(points.size() - 1).documents() > replies - gap, "up to the end: " + points.get(points.size() - 1));
  }

  @Test
  void shouldThinAnyCurveToTheBoundKeepingItsEnds() {
    List<BulkInsertFigures.Point> curve = new java.util.ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      curve.add(new BulkInsertFigures.Point(i / 100.0, i));
    }

    List<BulkInsertFigures.Point> thinned = StepProgress.thinned(curve);

    assertTrue(thinned.size() <= StepProgress.MOST_POINTS && thinned.size() > StepProgress.MOST_POINTS / 2,
        "bounded: " + thinned.size());
    assertEquals(curve.get(0), thinned.get(0));
    assertEquals(curve.get(1999), thinned.get(thinned.size() - 1), "the curve's end stays");
    assertEquals(curve.subList(0, 3), StepProgress.thinned(curve.subList(0, 3)), "a short curve as it is");
  }
}
