package couchbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The browser check itself: a broken page is caught on every count, and a sound one passes. */
class BrowserIT {

  private static Browser browser;

  @TempDir
  Path folder;

  @BeforeAll
  static void startBrowser() throws IOException {
    Optional<Path> chromium = Browser.chromium(BrowserIT.class);
    if (chromium.isPresent()) {
      browser = Browser.start(chromium.get());
    }
  }

  @BeforeEach
  void needsChromium() {
    Prerequisites.require(browser != null, Browser.NOT_INSTALLED);
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void shouldReportAnOutsideScriptAMissingImageAndAConsoleError() throws IOException {
    Path page = Files.writeString(folder.resolve("broken.html"), """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>broken</title>
        <script src="https://cdn.invalid/chart.js"></script></head>
        <body><h1>broken</h1>
        <img src="missing.png" alt="missing">
        <img src="data:image/png;base64,AAAAAAAA" alt="no PNG">
        <script>console.error('drawn wrong', 42)</script>
        </body></html>
        """);

    Browser.Findings findings = browser.open(page);

    assertEquals(List.of("https://cdn.invalid/chart.js"), findings.outsideRequests(), findings.toString());
    assertEquals(2, findings.images());
    assertEquals(List.of(folder.resolve("missing.png").toUri().toString(), "data:image/png;base64,AAAAAAAA"),
        findings.brokenImages(), findings.toString());
    assertTrue(findings.consoleErrors().contains("console.error: drawn wrong 42"), findings.toString());
    assertTrue(findings.consoleErrors().stream().anyMatch(e -> e.contains("missing.png")),
        "the failed load is in the console too: " + findings);
    assertFalse(findings.blank(), "the heading is drawn");
    assertFalse(findings.clean());
  }

  @Test
  void shouldPassAPageWithAnEmbeddedImageAndNoScript() throws IOException {
    BufferedImage red = new BufferedImage(2, 2, BufferedImage.TYPE_INT_RGB);
    red.setRGB(0, 0, 0xFF0000);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ImageIO.write(red, "png", bytes);
    String png = Base64.getEncoder().encodeToString(bytes.toByteArray());
    Path page = Files.writeString(folder.resolve("sound.html"), "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
        + "<title>sound</title></head><body><h1>sound</h1><img src=\"data:image/png;base64," + png
        + "\" width=\"100\" height=\"100\" alt=\"red dot\"></body></html>");

    Browser.Findings findings = browser.open(page);

    assertEquals(1, findings.images());
    assertTrue(findings.clean(), findings.toString());
  }

  @Test
  void shouldCallAPageWiderThanTheWindowUnfitButNotOneWhoseWideTableScrollsInItsBox() throws IOException {
    String cells = "<td>siege's figure</td>".repeat(40);
    Path wide = Files.writeString(folder.resolve("wide.html"), "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
        + "<title>wide</title></head><body><h1>wide</h1><table><tr>" + cells + "</tr></table></body></html>");
    Path boxed = Files.writeString(folder.resolve("boxed.html"), "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
        + "<title>boxed</title><style>.wide { max-width: 100%; overflow-x: auto; }</style></head><body><h1>boxed</h1>"
        + "<div class=\"wide\"><table><tr>" + cells + "</tr></table></div></body></html>");

    Browser.Findings findings = browser.open(wide);

    assertEquals(Browser.WIDTH, findings.windowWidth());
    assertTrue(findings.pageWidth() > Browser.WIDTH, findings.toString());
    assertFalse(findings.fits());
    assertFalse(findings.clean());
    assertTrue(browser.open(boxed).fits(), "the table scrolls in its box, the page does not");
  }

  @Test
  void shouldCallAOneColourPageBlank() throws IOException {
    Path page = Files.writeString(folder.resolve("blank.html"), "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
        + "<title>blank</title></head><body></body></html>");

    assertTrue(browser.open(page).blank());
  }
}
