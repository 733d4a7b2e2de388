package couchbench.scaleout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InjectorTest {

  @Test
  void shouldStartTheLoadAtTheAgreedInstantAndSayHowLateALateOneIs() {
    Instant soon = Instant.now().plusMillis(300);
    Injector onTime = injector(Map.of("injector", "1/2", "startAt", soon.toString()));

    Duration late = onTime.awaitStart();

    assertTrue(!Instant.now().isBefore(soon), "not before startAt");
    assertTrue(late.compareTo(Duration.ofMillis(200)) < 0, "on time: " + late);
    Injector behind = injector(Map.of("injector", "1/2", "startAt", "2026-01-01T00:00:00Z"));
    assertEquals("injector 1/2: load starts LATE, 2.500 s after -DstartAt=2026-01-01T00:00:00Z (this injector was"
        + " not ready before): its steps lag the other injectors' by as much",
        behind.describeStart(Duration.ofMillis(2500)));
    assertEquals(Duration.ZERO, injector(Map.of()).awaitStart(), "no startAt: at once");
  }

  @Test
  void shouldSetUpOnInjectorZeroOnlyWhileTheOthersWaitUntilItIsReady() {
    AtomicInteger setups = new AtomicInteger();
    AtomicInteger polls = new AtomicInteger();

    String first = injector(Map.of("injector", "0/2")).setUpOnce("database x",
        () -> "set up " + setups.incrementAndGet(), () -> Optional.of("ready"));
    String second = injector(Map.of("injector", "1/2")).setUpOnce("database x",
        () -> "set up " + setups.incrementAndGet(),
        () -> polls.incrementAndGet() < 3 ? Optional.empty() : Optional.of("ready"));

    assertEquals("set up 1", first);
    assertEquals("ready", second);
    assertEquals(1, setups.get(), "only injector 0 set up");
    assertEquals(3, polls.get(), "injector 1 polled until ready");
  }

  @Test
  void shouldStopWithOneLineWhenInjectorZerosSetupIsNotReadyInTime() {
    Injector second = injector(Map.of("injector", "1/2", "setupTimeout", "1"));

    ScaleOutException e = assertThrows(ScaleOutException.class,
        () -> second.setUpOnce("database x", () -> "never", Optional::empty));

    assertEquals("injector 1/2: database x was not set up by injector 0 within 1 s: start injector 0 of the same run"
        + " (same -DstartAt), or raise -DsetupTimeout", e.getMessage());
  }

  @Test
  void shouldRefuseAStartThatIsNoInstantOrTooFarAhead() {
    Map<String, String> refused = Map.of(
        "tomorrow", "-DstartAt=tomorrow is not an ISO-8601 UTC instant (expected e.g. 2026-12-01T10:00:00Z)",
        Instant.now().plus(Duration.ofDays(3)).toString(), " is more than 24 hours ahead");
    refused.forEach((startAt, message) -> {
      SettingsException e = assertThrows(SettingsException.class, () -> injector(Map.of("startAt", startAt)));
      assertTrue(e.getMessage().contains(message), e.getMessage());
    });
  }

  private static Injector injector(Map<String, String> properties) {
    return Injector.from(Settings.of(properties, Map.of()));
  }
}
