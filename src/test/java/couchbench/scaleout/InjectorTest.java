package couchbench.scaleout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InjectorTest {

  @Test
  void shouldStartTheLoadAtTheAgreedInstantAndSayHowLateALateOneIs() {
    Instant soon = Instant.now().plusMillis(300);
    Injector onTime = injector(Map.of("injector", "1/2", "startAt", soon.toString()));

    Injector.Start start = onTime.awaitStart().orElseThrow();

    assertTrue(!Instant.now().isBefore(soon), "not before startAt");
    assertEquals(soon, start.at());
    assertTrue(start.late().compareTo(Duration.ofMillis(200)) < 0, "on time: " + start.late());
    Injector behind = injector(Map.of("injector", "1/2", "startAt", "2026-01-01T00:00:00Z"));
    assertEquals("injector 1/2: load starts LATE, 2.500 s after -DstartAt=2026-01-01T00:00:00Z (this injector was"
        + " not ready before): its steps lag the other injectors' by as much",
        behind.describeStart(Instant.parse("2026-01-01T00:00:00Z"), Duration.ofMillis(2500)));
    assertEquals(Optional.empty(), injector(Map.of()).awaitStart(), "no startAt: at once");
  }

  @Test
  void shouldWaitForTheFileToNameTheStartThenStartTheLoadThere(@TempDir Path folder) throws Exception {
    Path file = folder.resolve("start-at");
    Injector injector = injector(Map.of("injector", "1/2", "startAtFile", file.toString()));
    Instant soon = Instant.now().plusMillis(600).truncatedTo(ChronoUnit.MILLIS);
    Thread writer = new Thread(() -> {
      try {
        Thread.sleep(300);
        Files.move(Files.writeString(folder.resolve("start-at.tmp"), soon.toString()), file,
            StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    writer.start();

    Injector.Start start = injector.awaitStart().orElseThrow();

    writer.join();
    assertEquals(soon, start.at(), "the instant the file named");
    assertTrue(!Instant.now().isBefore(soon), "not before it");
    assertTrue(start.late().compareTo(Duration.ofMillis(200)) < 0, "on time: " + start.late());
  }

  @Test
  void shouldStopWithOneLineWhenTheFileNamesNoStartInTime(@TempDir Path folder) throws Exception {
    Path file = folder.resolve("start-at");
    Injector unnamed = injector(Map.of("injector", "1/2", "startAtFile", file.toString(), "setupTimeout", "1"));

    ScaleOutException e = assertThrows(ScaleOutException.class, unnamed::awaitStart);

    assertEquals("injector 1/2: -DstartAtFile=" + file + " named no start within 1 s: write the instant there once"
        + " every injector is ready, or raise -DsetupTimeout", e.getMessage());
    Files.writeString(file, "noon");
    SettingsException noInstant = assertThrows(SettingsException.class, unnamed::awaitStart);
    assertTrue(noInstant.getMessage().startsWith("-DstartAt=noon is not an ISO-8601 UTC instant"),
        noInstant.getMessage());
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
    SettingsException both = assertThrows(SettingsException.class,
        () -> injector(Map.of("startAt", "2026-12-01T10:00:00Z", "startAtFile", "start-at")));
    assertEquals("-DstartAt and -DstartAtFile are both given: give one", both.getMessage());
    SettingsException nowhere = assertThrows(SettingsException.class,
        () -> injector(Map.of("startAtFile", "/no/such/folder/start-at")));
    assertEquals("-DstartAtFile=/no/such/folder/start-at is in no folder that exists", nowhere.getMessage());
  }

  private static Injector injector(Map<String, String> properties) {
    return Injector.from(Settings.of(properties, Map.of()));
  }
}
