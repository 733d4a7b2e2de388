package couchbench.scaleout;

import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One injector of a run that several run at once: its share ({@code -Dinjector=I/N}), the instant all injectors start
 * their load ({@code -DstartAt}, ISO-8601 UTC, so that steps line up across machines whose clocks agree; or
 * {@code -DstartAtFile}, a file that names that instant once every injector is ready), and the one-time setup that
 * injector 0 does while the others wait for it ({@code -DsetupTimeout} seconds at most).
 *
 * @param share this injector's share
 * @param startAt when the load starts, empty to start it at once or at the instant in startAtFile
 * @param startAtFile a file that names when the load starts, written once every injector said it is ready; empty
 *     for startAt
 * @param setupTimeout how long an injector other than 0 waits for injector 0's setup, and how long an injector waits
 *     for startAtFile
 */
public record Injector(InjectorShare share, Optional<Instant> startAt, Optional<Path> startAtFile,
    Duration setupTimeout) {

  /**
   * When the load started against the agreed start.
   *
   * @param at the agreed start
   * @param late how late the load started after it (zero when on time to the millisecond)
   */
  public record Start(Instant at, Duration late) {}

  /** A start more than this far ahead is a typo, not a plan: a run is bounded in time. */
  static final Duration FURTHEST_START = Duration.ofHours(24);

  /** A load that starts later than this after startAt says so as late. */
  static final Duration LATE = Duration.ofMillis(100);

  /** Seconds an injector waits for injector 0's setup by default: pods of one Job may start minutes apart. */
  static final int DEFAULT_SETUP_TIMEOUT = 300;

  private static final Duration POLL = Duration.ofMillis(250);

  /** How often an injector looks for startAtFile: whoever writes it names an instant at least this far ahead. */
  static final Duration FILE_POLL = Duration.ofMillis(50);

  /**
   * Reads the injector from the run's settings.
   *
   * @param settings injector (or client), startAt or startAtFile, setupTimeout
   * @return the injector
   * @throws SettingsException for a share that is not I/N, an instant that is not ISO-8601 UTC or one more than a
   *     day ahead, both startAt and startAtFile, or a startAtFile whose folder does not exist
   */
  public static Injector from(Settings settings) {
    InjectorShare share = InjectorShare.from(settings);
    Optional<Instant> startAt = settings.value("startAt").map(text -> instant(settings.get("startAt", text)));
    // Not a run parameter: a file of the harness's; the instant it names is the run's startAt in results.json.
    Optional<Path> startAtFile = settings.value("startAtFile").map(Path::of);
    if (startAt.isPresent() && startAtFile.isPresent()) {
      throw new SettingsException("-DstartAt and -DstartAtFile are both given: give one");
    }
    startAtFile.filter(file -> !Files.isDirectory(file.toAbsolutePath().getParent())).ifPresent(file -> {
      throw new SettingsException("-DstartAtFile=" + file + " is in no folder that exists");
    });
    // Only a run of several injectors waits for a setup: a run of one does not list the parameter.
    int setupTimeout = share.alone() ? DEFAULT_SETUP_TIMEOUT
        : settings.intValue("setupTimeout", DEFAULT_SETUP_TIMEOUT, 1);
    return new Injector(share, startAt, startAtFile, Duration.ofSeconds(setupTimeout));
  }

  private static Instant instant(String text) {
    Instant at;
    try {
      at = Instant.parse(text.trim());
    } catch (DateTimeParseException e) {
      throw new SettingsException("-DstartAt=" + text
          + " is not an ISO-8601 UTC instant (expected e.g. 2026-12-01T10:00:00Z)");
    }
    if (at.isAfter(Instant.now().plus(FURTHEST_START))) {
      throw new SettingsException("-DstartAt=" + at + " is more than " + FURTHEST_START.toHours()
          + " hours ahead (expected an instant soon, e.g. a minute from now)");
    }
    return at;
  }

  /**
   * Waits for the agreed start, and says when the load starts against it, in one line; at once without one. With
   * startAtFile, first says that it is ready and waits, at most setupTimeout, for the file to name the start.
   *
   * @return the agreed start and how late the load starts after it; empty without startAt and startAtFile
   * @throws SettingsException when startAtFile names no instant, or one more than a day ahead
   * @throws ScaleOutException when startAtFile is not written within setupTimeout
   */
  public Optional<Start> awaitStart() {
    Optional<Instant> agreed = startAtFile.isPresent() ? Optional.of(awaitStartAtFile(startAtFile.get())) : startAt;
    if (agreed.isEmpty()) {
      return Optional.empty();
    }
    Instant at = agreed.get();
    Duration ahead = Duration.between(Instant.now(), at);
    if (!ahead.isNegative()) {
      Console.say(String.format(Locale.ROOT, "injector %s: ready %.1f s before -DstartAt=%s, waiting", share,
          ahead.toMillis() / 1000.0, at));
    }
    try {
      // In steps, since the wall clock may be stepped by NTP while this sleeps.
      for (Duration left = Duration.between(Instant.now(), at); !left.isNegative() && !left.isZero();
          left = Duration.between(Instant.now(), at)) {
        Thread.sleep(Math.max(1, Math.min(left.toMillis(), 1000)));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScaleOutException("injector " + share + ": interrupted while waiting for -DstartAt=" + at);
    }
    Duration late = Duration.between(at, Instant.now());
    Console.say(describeStart(at, late));
    return Optional.of(new Start(at, late));
  }

  /**
   * Says that this injector is ready, then waits until the file names the start: whoever started the injectors writes
   * it (whole: written elsewhere and moved there) once every one has said so.
   */
  private Instant awaitStartAtFile(Path file) {
    Console.say("injector " + share + ": ready, waiting for -DstartAtFile=" + file + " to name the start (at most "
        + setupTimeout.toSeconds() + " s)");
    long deadline = System.nanoTime() + setupTimeout.toNanos();
    try {
      while (!Files.exists(file)) {
        if (System.nanoTime() > deadline) {
          throw new ScaleOutException("injector " + share + ": -DstartAtFile=" + file + " named no start within "
              + setupTimeout.toSeconds() + " s: write the instant there once every injector is ready, or raise"
              + " -DsetupTimeout");
        }
        Thread.sleep(FILE_POLL.toMillis());
      }
      return instant(Files.readString(file));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScaleOutException("injector " + share + ": interrupted while waiting for -DstartAtFile=" + file);
    } catch (IOException e) {
      throw new UncheckedIOException("reading -DstartAtFile=" + file, e);
    }
  }

  /** The start line: on time, or late by how much. */
  String describeStart(Instant at, Duration late) {
    String seconds = String.format(Locale.ROOT, "%.3f s", late.toNanos() / 1e9);
    return late.compareTo(LATE) <= 0
        ? "injector " + share + ": load starts at -DstartAt=" + at + " (+" + seconds + ")"
        : "injector " + share + ": load starts LATE, " + seconds + " after -DstartAt=" + at
            + " (this injector was not ready before): its steps lag the other injectors' by as much";
  }

  /**
   * {@link #setUpOnce(String, Supplier, Supplier)} for a setup whose result the load does not need.
   *
   * @param what what is set up, for the messages
   * @param setup does the setup
   * @param ready whether the setup is done
   * @throws ScaleOutException when the setup is not ready within the timeout
   */
  public void setUpOnce(String what, Runnable setup, BooleanSupplier ready) {
    setUpOnce(what, () -> {
      setup.run();
      return true;
    }, () -> ready.getAsBoolean() ? Optional.of(true) : Optional.empty());
  }

  /**
   * Setup that a run needs once (a database, design documents, a view): injector 0 does it; every other injector
   * waits until it is ready, polling, at most {@link #setupTimeout}.
   *
   * @param what what is set up, for the messages, e.g. "database couchbench_siege"
   * @param setup does the setup and returns what the load needs from it
   * @param ready what the load needs, once the setup is done; empty while it is not
   * @param <T> what the load needs
   * @return the setup's result, on every injector
   * @throws ScaleOutException when the setup is not ready within the timeout
   */
  public <T> T setUpOnce(String what, Supplier<T> setup, Supplier<Optional<T>> ready) {
    if (share.first()) {
      return setup.get();
    }
    long deadline = System.nanoTime() + setupTimeout.toNanos();
    Optional<T> done = ready.get();
    if (done.isEmpty()) {
      Console.say("injector " + share + ": waiting for injector 0 to set up " + what + " (at most "
          + setupTimeout.toSeconds() + " s)");
    }
    while (done.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new ScaleOutException("injector " + share + ": " + what + " was not set up by injector 0 within "
            + setupTimeout.toSeconds() + " s: start injector 0 of the same run (same -DstartAt), or raise"
            + " -DsetupTimeout");
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ScaleOutException("injector " + share + ": interrupted while waiting for " + what);
      }
      done = ready.get();
    }
    return done.get();
  }
}
