package couchbench.report;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import org.knowm.xchart.internal.chartpart.Annotation;

/**
 * A stretch of an XY chart's x axis shaded over the plot's height, edged and labelled at its top: drawn over the
 * series, light enough to read them through.
 */
final class ShadedBand extends Annotation {

  private static final Color FILL = new Color(70, 110, 160, 40);
  private static final Color EDGE = new Color(70, 110, 160, 160);
  private static final Color LABEL = new Color(40, 60, 90);

  /**
   * @param label the text at its top
   * @param from its left end, in x
   * @param to its right end, in x
   */
  record Band(String label, double from, double to) {
    Band {
      if (!(to >= from)) {
        throw new IllegalArgumentException("band '" + label + "': it ends at " + to + ", before its start " + from);
      }
    }
  }

  private final Band band;

  ShadedBand(Band band) {
    super(false); // in the axes' values, not in pixels
    this.band = band;
  }

  @Override
  public void paint(Graphics2D g) {
    int plotLeft = getXAxisScreenValueForMin();
    int plotRight = getXAxisScreenValueForMax();
    int left = Math.max(plotLeft, Math.min(plotRight, getXAxisScreenValue(band.from())));
    int right = Math.max(left, Math.min(plotRight, getXAxisScreenValue(band.to())));
    int top = Math.min(getYAxisScreenValueForMin(), getYAxisScreenValueForMax());
    int bottom = Math.max(getYAxisScreenValueForMin(), getYAxisScreenValueForMax());
    g.setColor(FILL);
    g.fillRect(left, top, Math.max(1, right - left), bottom - top);
    g.setColor(EDGE);
    g.drawLine(left, top, left, bottom);
    g.drawLine(right, top, right, bottom);
    g.setColor(LABEL);
    g.setFont(styler.getAnnotationTextFont());
    g.drawString(band.label(), left + 3, top + g.getFontMetrics().getAscent() + 2);
    bounds = new Rectangle2D.Double(left, top, right - left, bottom - top);
  }
}
