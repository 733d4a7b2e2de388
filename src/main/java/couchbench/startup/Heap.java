package couchbench.startup;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Gatling JVM's heap as couchbench looks after it: where a heap dump goes, and an optional probe
 * of the heap in use, for the long-run test and bench/long-run.sh (docs/long-runs.md).
 */
public final class Heap {

  /** Gatling's Maven plugin starts its JVM with -XX:+HeapDumpOnOutOfMemoryError: the dumps go here. */
  static final Path DUMPS = Path.of("target", "heap-dumps");

  /** Seconds between two probes; not set: no probe. */
  static final String PROBE = "couchbench.heapProbe";

  private Heap() {}

  /**
   * Sends heap dumps to {@link #DUMPS} rather than the working directory, the project's root, unless
   * -XX:HeapDumpPath was given. The flag is manageable, so this holds whatever -Dgatling.jvmArgs
   * replaced the pom's JVM arguments with.
   */
  public static void dumpsUnderTarget() {
    HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    if (hotspot.getVMOption("HeapDumpPath").getOrigin() != VMOption.Origin.DEFAULT) {
      return;
    }
    try {
      // A folder: the JVM names the dump in it java_pid<pid>.hprof.
      Path folder = Files.createDirectories(DUMPS).toAbsolutePath();
      hotspot.setVMOption("HeapDumpPath", folder.toString());
    } catch (IOException e) {
      Console.say("could not create " + DUMPS + " (" + e.getMessage() + "): a heap dump would go to the working"
          + " directory");
    }
  }

  /**
   * With -Dcouchbench.heapProbe=N: every N seconds, a full GC, then one line
   * {@code couchbench: heap probe: <s> s, <bytes> bytes used after GC} (seconds since the JVM
   * started). The full GC is what makes the figure the live heap, not garbage not collected yet; it
   * pauses the run for some milliseconds, so a measured run should leave the probe off.
   *
   * @param settings where -Dcouchbench.heapProbe is read
   * @throws SettingsException when it is not a whole number of seconds >= 1
   */
  public static void probeIfAsked(Settings settings) {
    int seconds = settings.intValue(PROBE, 0, 1);
    if (seconds == 0) {
      return;
    }
    Duration period = Duration.ofSeconds(seconds);
    Thread probe = new Thread(() -> {
      try {
        while (true) {
          Thread.sleep(period.toMillis());
          System.gc();
          long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
          long uptime = ManagementFactory.getRuntimeMXBean().getUptime() / 1000;
          Console.say("heap probe: " + uptime + " s, " + used + " bytes used after GC");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "couchbench heap probe");
    probe.setDaemon(true);
    probe.start();
  }
}
