package couchbench.resources;

import couchbench.targets.LocalServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The figures of a server process on this machine, from /proc: its CPU time, the size of its data directory when
 * known, and its resident memory.
 */
final class LocalProcess {

  private LocalProcess() {}

  /**
   * Adds "NAME cpu time (s)", "NAME data directory (bytes)" and "NAME resident memory (bytes)" to figures.
   *
   * @param server the local server
   * @param figures where the three figures go, n/a when unknown
   */
  static void addFigures(LocalServer server, Map<String, Optional<BigDecimal>> figures) {
    figures.put(server.name() + " cpu time (s)", cpuSeconds(server.pid()));
    figures.put(server.name() + " data directory (bytes)", server.dataDirectory().map(LocalProcess::bytes));
    figures.put(server.name() + " resident memory (bytes)", residentBytes(server.pid(), Path.of("/proc")));
  }

  /** VmRSS of /proc/PID/status, in kB there; n/a when the process is gone or not readable. */
  static Optional<BigDecimal> residentBytes(long pid, Path proc) {
    try (Stream<String> lines = Files.lines(proc.resolve(Long.toString(pid)).resolve("status"))) {
      return lines.filter(line -> line.startsWith("VmRSS:")).findFirst()
          .map(line -> line.replaceAll("[^0-9]", ""))
          .filter(kilobytes -> !kilobytes.isEmpty())
          .map(kilobytes -> new BigDecimal(kilobytes).multiply(BigDecimal.valueOf(1024)));
    } catch (IOException | UncheckedIOException e) {
      return Optional.empty();
    }
  }

  // The JDK reads utime + stime from /proc/PID/stat and scales the clock ticks by sysconf(_SC_CLK_TCK),
  // which a hand-written parser would have to guess.
  static Optional<BigDecimal> cpuSeconds(long pid) {
    return ProcessHandle.of(pid)
        .flatMap(process -> process.info().totalCpuDuration())
        .map(cpu -> BigDecimal.valueOf(cpu.toNanos(), 9).stripTrailingZeros());
  }

  /** The bytes of the regular files under a directory; a file deleted while it is walked counts as 0. */
  static BigDecimal bytes(Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      return BigDecimal.valueOf(files.mapToLong(LocalProcess::size).sum());
    } catch (NoSuchFileException e) {
      return BigDecimal.ZERO;
    } catch (IOException e) {
      throw new UncheckedIOException("measuring " + directory, e);
    }
  }

  private static long size(Path file) {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      return attributes.isRegularFile() ? attributes.size() : 0;
    } catch (IOException e) {
      return 0; // deleted meanwhile: LevelDB replaces its files as it compacts
    }
  }
}
