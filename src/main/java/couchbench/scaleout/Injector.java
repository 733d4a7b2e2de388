package couchbench.scaleout;

import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One injector of a run that several run at once: its share ({@code -Dinjector=I/N}), the instant all injectors start
 * their load ({@code -DstartAt}, ISO-8601 UTC, so that steps line up across machines whose clocks agree), and the
 * one-time setup that injector 0 does while the others wait for it ({@code -DsetupTimeout} seconds at most).
 *
 * @param share this injector's share
 * @param startAt when the load starts, empty to start it at once
 * @param setupTimeout how long an injector other than 0 waits for injector 0's setup
 */
public record Injector(InjectorShare share, Optional<Instant> startAt, Duration setupTimeout) {

  /** A start more than this far ahead is a typo, not a plan: a run is bounded in time. */
  static final Duration FURTHEST_START = Duration.ofHours(24);

  /** A load that starts later than this after startAt says so as late. */
  static final Duration LATE = Duration.ofMillis(100);

  /** Seconds an injector waits for injector 0's setup by default: pods of one Job may start minutes apart. */
  static final int DEFAULT_SETUP_TIMEOUT = 300;

  private static final Duration POLL = Duration.ofMillis(250);

  /**
   * Reads the injector from the run's settings.
   *
   * @param settings injector (or client), startAt, setupTimeout
   * @return the injector
   * @throws SettingsException for a share that is not I/N, an instant that is not ISO-8601 UTC or one more than a
   *     day ahead
   */
  public static Injector from(Settings settings) {
    InjectorShare share = InjectorShare.from(settings);
    Optional<Instant> startAt = settings.value("startAt").map(text -> instant(settings.get("startAt", text)));
    startAt.filter(at -> at.isAfter(Instant.now().plus(FURTHEST_START))).ifPresent(at -> {
      throw new SettingsException("-DstartAt=" + at + " is more than " + FURTHEST_START.toHours()
          + " hours ahead (expected an instant soon, e.g. a minute from now)");
    });
    // Only a run of several injectors waits for a setup: a run of one does not list the parameter.
    int setupTimeout = share.alone() ? DEFAULT_SETUP_TIMEOUT
        : settings.intValue("setupTimeout", DEFAULT_SETUP_TIMEOUT, 1);
    return new Injector(share, startAt, Duration.ofSeconds(setupTimeout));
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text.trim());
    } catch (DateTimeParseException e) {
      throw new SettingsException("-DstartAt=" + text
          + " is not an ISO-8601 UTC instant (expected e.g. 2026-12-01T10:00:00Z)");
    }
  }

  /**
   * Waits for the agreed start, and says when the load starts against it, in one line; at once without one.
   *
   * @return how late the load starts after startAt (zero without one, or when on time to the millisecond)
   */
  public Duration awaitStart() {
    if (startAt.isEmpty()) {
      return Duration.ZERO;
    }
    Instant at = startAt.get();
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
    Console.say(describeStart(late));
    return late;
  }

  /** The start line: on time, or late by how much. */
  String describeStart(Duration late) {
    String seconds = String.format(Locale.ROOT, "%.3f s", late.toNanos() / 1e9);
    return late.compareTo(LATE) <= 0
        ? "injector " + share + ": load starts at -DstartAt=" + startAt.orElseThrow() + " (+" + seconds + ")"
        : "injector " + share + ": load starts LATE, " + seconds + " after -DstartAt=" + startAt.orElseThrow()
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
