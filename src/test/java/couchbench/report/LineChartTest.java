package couchbench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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

  private static void assertPng(byte[] png, int width, int height) throws IOException {
    assertArrayEquals(PNG_MAGIC, Arrays.copyOf(png, PNG_MAGIC.length));
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
    assertEquals(width, image.getWidth());
    assertEquals(height, image.getHeight());
  }
}
