package couchbench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.rounds.Spread;
import java.awt.Color;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.knowm.xchart.XYChartBuilder;

class LineChartTest {

  private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @Test
  void shouldRenderAPngOfTheSizeAsked() throws IOException {
    byte[] png = LineChart.titled("docs/s").axes("batch size", "docs/s").logX()
        .series("T=1", List.of(1, 2, 4, 1024), List.of(16.0, 30.5, 58.0, 600.0))
        .series("T=2", List.of(1, 2, 4, 1024), List.of(20.0, 40.0, 75.0, 950.0))
        .png(640, 400);

    assertPng(png, 640, 400);
  }

  @Test
  void shouldRenderLogLogAndASeriesWithOnePoint() throws IOException {
    byte[] png = LineChart.titled("time against size").axes("bytes", "ms").logX().logY()
        .series("raw", List.of(1_000_000L), List.of(12.5))
        .png(300, 200);

    assertPng(png, 300, 200);
    assertPng(LineChart.titled("linear").series("one", List.of(5), List.of(7)).png(300, 200), 300, 200);
  }

  @Test
  void shouldRenderAChartWhoseSeriesHaveNoPoints() throws IOException {
    assertPng(LineChart.titled("failed step").logY().series("none", List.of(), List.of()).png(300, 200), 300, 200);
  }

  @Test
  @Timeout(20)
  void shouldRenderCategoriesWithOnePointOrNone() throws IOException {
    LineChart rates = LineChart.titled("rates").logY().xCategories(List.of("write", "read", "record write"));

    assertPng(rates.series("CouchDB", List.of(2), List.of(850.0)).png(300, 200), 300, 200);
    assertPng(rates.series("memcache", List.of(), List.of()).png(300, 200), 300, 200);
  }

  @Test
  void shouldNameTheSeriesWhoseSizesDiffer() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LineChart.titled("t").series("multipart", List.of(1, 2, 3), List.of(1.0, 2.0)));

    assertTrue(e.getMessage().contains("multipart"), e.getMessage());
  }

  @Test
  void shouldNameTheSeriesThatCannotGoOnALogAxis() {
    LineChart chart = LineChart.titled("t").logY().series("inline", List.of(1, 2), List.of(0.0, 2.0));

    IllegalStateException e = assertThrows(IllegalStateException.class, () -> chart.png(200, 100));
    assertTrue(e.getMessage().contains("inline"), e.getMessage());
  }

  @Test
  void shouldLeaveTheOriginalUnchanged() {
    LineChart empty = LineChart.titled("t");
    LineChart one = empty.series("a", List.of(1), List.of(2));

    assertEquals("series,x,y\n", empty.data().toCsv());
    assertEquals("series,x,y\na,1,2\n", one.data().toCsv());
  }

  @Test
  void shouldDrawEachPointsRangeAsABarInItsLinesColour() throws IOException {
    List<Integer> xs = List.of(1, 2, 3);
    LineChart chart = LineChart.titled("docs/s").axes("B", "docs/s");
    byte[] medians = chart.series("T=1", xs, List.of(50.0, 50.0, 50.0)).png(400, 300);
    byte[] ranged = chart.spreadSeries("T=1", xs, List.of(new Spread(50, 10, 90, 3), new Spread(50, 40, 60, 3),
        new Spread(50, 45, 55, 3))).png(400, 300);

    Color lineColour = new XYChartBuilder().build().getStyler().getSeriesColors()[0];
    int without = pixels(medians, lineColour);
    int with = pixels(ranged, lineColour);
    // Bars 80, 20 and 10 units long, on an axis of about 80 units over about 230 pixels: hundreds of pixels more.
    assertTrue(with > without + 200, "pixels of the line's colour: " + without + " without ranges, " + with + " with");
  }

  @Test
  void shouldShadeABandOfTheXAxisWithItsLabelAndLeaveItOutOfTheData() throws IOException {
    LineChart chart = LineChart.titled("latency").axes("seconds into the load", "ms").xRange(0, 10)
        .series("p99", List.of(0, 5, 10), List.of(1.0, 1.0, 1.0));
    Rendered plain = chart.rendered(600, 300);
    Rendered shaded = chart.band("1 compact", 2, 6).rendered(600, 300);

    BufferedImage before = ImageIO.read(new ByteArrayInputStream(plain.png()));
    BufferedImage after = ImageIO.read(new ByteArrayInputStream(shaded.png()));
    Rectangle2D plot = ((Rendered.Xy) shaded.chart()).plotBounds();
    // Sampled at a fifth of the plot's height, clear of the line at y = 1 and of the label at the band's top.
    int y = (int) (plot.getY() + plot.getHeight() * 0.8);
    int inside = (int) (plot.getX() + plot.getWidth() * 0.4);
    int outside = (int) (plot.getX() + plot.getWidth() * 0.8);
    assertTrue(after.getRGB(inside, y) != before.getRGB(inside, y), "shaded at x = 4");
    assertEquals(before.getRGB(outside, y), after.getRGB(outside, y), "not at x = 8");
    assertEquals(chart.data().toCsv(), chart.band("1 compact", 2, 6).data().toCsv(), "a band is not a series");
    assertThrows(IllegalArgumentException.class, () -> chart.band("backwards", 6, 2));
  }

  @Test
  void shouldWriteEachPointsRangeBesideItsMedian() {
    LineChart chart = LineChart.titled("t").axes("B", "docs/s")
        .spreadSeries("T=1", List.of(1, 64), List.of(new Spread(300, 280, 310, 3), Spread.once(9000)))
        .series("T=2", List.of(1), List.of(400));

    assertEquals("series,B,docs/s,smallest round,largest round\n"
        + "T=1,1,300,280,310\nT=1,64,9000,9000,9000\nT=2,1,400,,\n", chart.data().toCsv());
  }

  @Test
  void shouldRefuseARangeOnALogAxisThatReachesZero() {
    LineChart chart = LineChart.titled("t").logY().spreadSeries("runs", List.of(1), List.of(new Spread(5, 0, 9, 2)));

    IllegalStateException e = assertThrows(IllegalStateException.class, () -> chart.png(200, 100));
    assertTrue(e.getMessage().contains("runs"), e.getMessage());
  }

  /** @return the pixels of about this colour: lines are drawn translucent and smoothed, so never exactly it */
  private static int pixels(byte[] png, Color colour) throws IOException {
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
    int count = 0;
    for (int x = 0; x < image.getWidth(); x++) {
      for (int y = 0; y < image.getHeight(); y++) {
        Color pixel = new Color(image.getRGB(x, y));
        int distance = Math.abs(pixel.getRed() - colour.getRed()) + Math.abs(pixel.getGreen() - colour.getGreen())
            + Math.abs(pixel.getBlue() - colour.getBlue());
        count += distance < 200 ? 1 : 0; // white and the grid greys are over 400 away
      }
    }
    return count;
  }

  private static void assertPng(byte[] png, int width, int height) throws IOException {
    assertArrayEquals(PNG_MAGIC, Arrays.copyOf(png, PNG_MAGIC.length));
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
    assertEquals(width, image.getWidth());
    assertEquals(height, image.getHeight());
  }
}
