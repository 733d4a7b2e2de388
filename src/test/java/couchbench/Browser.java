package couchbench;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.process.ChildProcess;
import couchbench.process.Executables;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import javax.imageio.ImageIO;

/**
 * Headless Chromium (Debian's {@code chromium}) opening pages one tab at a time with the network off, driven over
 * the DevTools protocol: what a reader's browser would fetch, fail to show or complain about. Each run of the browser
 * has a fresh profile, deleted with it.
 */
public final class Browser implements AutoCloseable {

  /** How long one page may take to open, be checked and be photographed. */
  public static final Duration PAGE_TIMEOUT = Duration.ofSeconds(30);

  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  /** The window's width: a page must fit it without scrolling sideways. */
  public static final int WIDTH = 1280;
  private static final int HEIGHT = 900;

  // Every image's decode() settles; the ones that failed, or decoded to nothing, come back by their address; and
  // the page's width beside the window's.
  private static final String BROKEN_IMAGES = """
      Promise.all(Array.from(document.images, img => img.decode()
          .then(() => img.naturalWidth > 0 ? null : img.src, () => img.src)))
        .then(sources => ({ images: sources.length, broken: sources.filter(s => s !== null)
          .map(s => s.length > 100 ? s.slice(0, 100) + '...' : s),
          pageWidth: document.documentElement.scrollWidth, windowWidth: window.innerWidth }))
      """;

  /**
   * What a page did in the browser.
   *
   * @param outsideRequests every address the page asked for that is neither a file: nor a data: URL (all refused)
   * @param images how many img elements the page has
   * @param brokenImages the img elements that did not decode to a picture, by their src
   * @param consoleErrors console.error and console.assert calls, uncaught exceptions, and the browser's own errors
   *     (a file that failed to load, say)
   * @param blank whether the screenshot of the page's first screen is one colour only
   * @param pageWidth the page's whole width in CSS pixels, what a reader scrolls across
   * @param windowWidth the window's width in CSS pixels
   */
  public record Findings(List<String> outsideRequests, int images, List<String> brokenImages,
      List<String> consoleErrors, boolean blank, int pageWidth, int windowWidth) {

    /** @return whether the page opened offline with nothing wrong, and fits the window's width */
    public boolean clean() {
      return outsideRequests.isEmpty() && brokenImages.isEmpty() && consoleErrors.isEmpty() && !blank && fits();
    }

    /** @return whether the page is no wider than the window: nothing to scroll sideways */
    public boolean fits() {
      return pageWidth <= windowWidth;
    }
  }

  private final ChildProcess process;
  private final DevTools devTools;

  private Browser(ChildProcess process, DevTools devTools) {
    this.process = process;
    this.devTools = devTools;
  }

  /** Why a browser test skipped, with the fix. */
  public static final String NOT_INSTALLED = "no chromium on the PATH: apt-get install chromium (.ci/run installs it)";

  /**
   * Debian's chromium from the PATH; where it is not installed, says so in one printed line, since a skipped test is
   * easy to miss in Maven's output. The test then skips (or fails, in CI) each of its tests with {@link #NOT_INSTALLED}
   * through {@link Prerequisites#require}.
   *
   * @param test the test class that needs it, named in that line
   * @return the browser's executable, if installed
   */
  public static Optional<Path> chromium(Class<?> test) {
    Optional<Path> chromium = Executables.find("chromium", Executables.systemPath());
    if (chromium.isEmpty()) {
      Prerequisites.sayMissing(test, NOT_INSTALLED);
    }
    return chromium;
  }

  /**
   * Starts the browser, listening for DevTools on a free loopback port, with a fresh profile in a temporary folder;
   * like the servers the tests start, it cannot outlive this JVM, and its folder goes with it.
   *
   * @param chromium the browser's executable
   * @return the running browser
   * @throws IOException when it does not start or does not answer within 30 s
   */
  public static Browser start(Path chromium) throws IOException {
    Path scratch = Files.createTempDirectory("couchbench-chromium-");
    Path profile = scratch.resolve("profile");
    List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--user-data-dir=" + profile,
        "--remote-debugging-port=0", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-gpu",
        "--hide-scrollbars", "--mute-audio", "--window-size=" + WIDTH + "," + HEIGHT));
    if (Executables.runningAsRoot()) {
      // Chromium's sandbox will not start as root (as CI runs); the pages it opens are the project's own files.
      command.add("--no-sandbox");
    }
    command.add("about:blank");
    ChildProcess process = ChildProcess.start("chromium", command, scratch, scratch.resolve("chromium.log"), scratch,
        Executables.systemPath());
    try {
      return new Browser(process, DevTools.connect(endpoint(process, profile), START_TIMEOUT));
    } catch (IOException | RuntimeException e) {
      process.stop(true);
      throw e;
    }
  }

  /** Chromium writes its DevTools port and browser path into the profile once it listens. */
  private static URI endpoint(ChildProcess process, Path profile) throws IOException {
    Path activePort = profile.resolve("DevToolsActivePort");
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(activePort)) {
        List<String> lines = Files.readAllLines(activePort);
        if (lines.size() >= 2) {
          return URI.create("ws://127.0.0.1:" + lines.get(0).strip() + lines.get(1).strip());
        }
      }
      if (!process.isRunning()) {
        throw new IOException("chromium exited before listening for DevTools: see " + process.logFile());
      }
      sleep(50);
    }
    throw new IOException("chromium did not listen for DevTools within " + START_TIMEOUT + ": see "
        + process.logFile());
  }

  /**
   * Opens a page in a new tab with the network off, waits for its load event, decodes its images and takes a
   * screenshot; any request to another address than a file: or data: URL is refused and reported.
   *
   * @param page an HTML file
   * @return what the page did
   * @throws IllegalStateException when the page does not load within {@link #PAGE_TIMEOUT}
   */
  public Findings open(Path page) {
    long deadline = System.nanoTime() + PAGE_TIMEOUT.toNanos();
    String target = devTools.call(null, "Target.createTarget", Map.of("url", "about:blank"), left(deadline))
        .get("targetId").asText();
    try {
      String session = devTools.call(null, "Target.attachToTarget", Map.of("targetId", target, "flatten", true),
          left(deadline)).get("sessionId").asText();
      PageEvents events = new PageEvents(session);
      devTools.onEvent(events);
      try {
        return open(page, session, events, deadline);
      } finally {
        devTools.removeListener(events);
      }
    } finally {
      devTools.send(null, "Target.closeTarget", Map.of("targetId", target));
    }
  }

  private Findings open(Path page, String session, PageEvents events, long deadline) {
    for (String domain : List.of("Page", "Runtime", "Log", "Network")) {
      devTools.call(session, domain + ".enable", Map.of(), left(deadline));
    }
    // The network off for the page: offline, and every request but the page's own files held and refused.
    devTools.call(session, "Network.emulateNetworkConditions", Map.of("offline", true, "latency", 0,
        "downloadThroughput", -1, "uploadThroughput", -1), left(deadline));
    devTools.call(session, "Fetch.enable", Map.of("patterns", List.of(Map.of("urlPattern", "*"))), left(deadline));
    devTools.call(session, "Emulation.setDeviceMetricsOverride", Map.of("width", WIDTH, "height", HEIGHT,
        "deviceScaleFactor", 1, "mobile", false), left(deadline));
    JsonNode navigated = devTools.call(session, "Page.navigate", Map.of("url", page.toUri().toString()),
        left(deadline));
    if (navigated.has("errorText")) {
      throw new IllegalStateException(page + ": " + navigated.get("errorText").asText());
    }
    await(events.loaded, page, deadline);
    JsonNode images = devTools.call(session, "Runtime.evaluate", Map.of("expression", BROKEN_IMAGES,
        "awaitPromise", true, "returnByValue", true), left(deadline)).path("result").path("value");
    List<String> broken = new ArrayList<>();
    images.path("broken").forEach(source -> broken.add(source.asText()));
    String png = devTools.call(session, "Page.captureScreenshot", Map.of("format", "png"), left(deadline))
        .get("data").asText();
    return events.findings(images.path("images").asInt(), broken, oneColour(Base64.getDecoder().decode(png)),
        images.path("pageWidth").asInt(), images.path("windowWidth").asInt());
  }

  /** The events of one page's session: its load, what it asked for, what it logged as an error. */
  private final class PageEvents implements Consumer<JsonNode> {

    private final String session;
    private final CompletableFuture<Void> loaded = new CompletableFuture<>();
    private final Set<String> outside = new LinkedHashSet<>();
    private final List<String> errors = new ArrayList<>();
    private boolean navigated;

    PageEvents(String session) {
      this.session = session;
    }

    @Override
    public synchronized void accept(JsonNode event) {
      if (!session.equals(event.path("sessionId").asText())) {
        return;
      }
      JsonNode params = event.path("params");
      switch (event.path("method").asText()) {
        // The new tab's about:blank may still fire its own load event: only the one after the page's counts.
        case "Page.frameNavigated" -> navigated |= !params.path("frame").has("parentId")
            && params.path("frame").path("url").asText().startsWith("file:");
        case "Page.loadEventFired" -> {
          if (navigated) {
            loaded.complete(null);
          }
        }
        case "Network.requestWillBeSent" -> outsideOnly(params.path("request").path("url").asText());
        case "Network.webSocketCreated" -> outsideOnly(params.path("url").asText());
        case "Fetch.requestPaused" -> {
          String url = params.path("request").path("url").asText();
          String requestId = params.path("requestId").asText();
          if (outsideOnly(url)) {
            devTools.send(session, "Fetch.failRequest", Map.of("requestId", requestId, "errorReason",
                "BlockedByClient"));
          } else {
            devTools.send(session, "Fetch.continueRequest", Map.of("requestId", requestId));
          }
        }
        case "Runtime.consoleAPICalled" -> {
          String type = params.path("type").asText();
          if (type.equals("error") || type.equals("assert")) {
            List<String> args = new ArrayList<>();
            params.path("args").forEach(arg -> args.add(arg.has("value") ? arg.get("value").asText()
                : arg.path("description").asText()));
            errors.add("console." + type + ": " + String.join(" ", args));
          }
        }
        case "Runtime.exceptionThrown" -> {
          JsonNode details = params.path("exceptionDetails");
          String text = details.path("text").asText();
          errors.add("uncaught: " + details.path("exception").path("description").asText(text));
        }
        case "Log.entryAdded" -> {
          JsonNode entry = params.path("entry");
          if (entry.path("level").asText().equals("error")) {
            errors.add(entry.path("source").asText() + ": " + entry.path("text").asText()
                + (entry.has("url") ? " (" + abbreviate(entry.get("url").asText()) + ")" : ""));
          }
        }
        default -> { }
      }
    }

    synchronized Findings findings(int images, List<String> broken, boolean blank, int pageWidth, int windowWidth) {
      return new Findings(List.copyOf(outside), images, List.copyOf(broken), List.copyOf(errors), blank, pageWidth,
          windowWidth);
    }

    /** Notes an address outside the page's own files; returns whether it is one. */
    private boolean outsideOnly(String url) {
      boolean local = url.startsWith("file:") || url.startsWith("data:");
      if (!local) {
        outside.add(abbreviate(url));
      }
      return !local;
    }
  }

  private static boolean oneColour(byte[] png) {
    BufferedImage image;
    try {
      image = ImageIO.read(new ByteArrayInputStream(png));
    } catch (IOException e) {
      throw new UncheckedIOException("the screenshot is no PNG", e);
    }
    int first = image.getRGB(0, 0);
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if (image.getRGB(x, y) != first) {
          return false;
        }
      }
    }
    return true;
  }

  private static void await(CompletableFuture<Void> loaded, Path page, long deadline) {
    try {
      loaded.get(left(deadline).toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(page + ": no load event within " + PAGE_TIMEOUT, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(page + ": " + e.getCause(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(page + ": interrupted", e);
    }
  }

  private static Duration left(long deadline) {
    return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
  }

  private static String abbreviate(String url) {
    return url.length() > 100 ? url.substring(0, 100) + "..." : url;
  }

  /** Ends the browser (its profile deleted with it). */
  @Override
  public void close() {
    devTools.close();
    process.close();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while chromium started", e);
    }
  }
}
