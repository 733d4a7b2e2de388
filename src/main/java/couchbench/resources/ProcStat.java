package couchbench.resources;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Linux's per-thread CPU counters: {@code /proc/PID/stat} and {@code /proc/PID/task/TID/stat}, whose
 * utime and stime are clock ticks. Nothing here works elsewhere than on Linux: callers get empty results.
 */
final class ProcStat {

  /** The auxiliary vector's AT_CLKTCK, the tick rate the kernel counts utime and stime in. */
  private static final long AT_CLKTCK = 17;

  private static final Optional<Long> TICKS_PER_SECOND = ticksPerSecond(Path.of("/proc/self/auxv"));

  private ProcStat() {}

  /**
   * One process's or thread's counters.
   *
   * @param name the thread or program name as the kernel keeps it (15 characters at most)
   * @param userSeconds CPU time spent in user mode
   * @param systemSeconds CPU time spent in the kernel on its behalf
   */
  record Times(String name, double userSeconds, double systemSeconds) {

    double seconds() {
      return userSeconds + systemSeconds;
    }
  }

  /**
   * A process's counters, all its threads, live and exited, together.
   *
   * @param pid the process
   * @return its times; empty when it is gone or this is not Linux
   */
  static Optional<Times> process(long pid) {
    return TICKS_PER_SECOND.flatMap(ticks -> read(Path.of("/proc", Long.toString(pid), "stat"), ticks));
  }

  /**
   * The counters of each live thread of a process; a thread that has exited is no longer listed.
   *
   * @param pid the process
   * @return one entry per thread, empty when the process is gone or this is not Linux
   */
  static List<Times> threads(long pid) {
    List<Times> threads = new ArrayList<>();
    if (TICKS_PER_SECOND.isEmpty()) {
      return threads;
    }
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        read(task.resolve("stat"), TICKS_PER_SECOND.get()).ifPresent(threads::add);
      }
    } catch (IOException e) {
      return List.of();
    }
    return threads;
  }

  /**
   * Parses a stat line: {@code PID (NAME) STATE ...}, utime and stime being the 14th and 15th fields.
   * The name may hold spaces and parentheses, so the fields are counted from its last ')'.
   */
  static Optional<Times> parse(String line, long ticksPerSecond) {
    int open = line.indexOf('(');
    int close = line.lastIndexOf(')');
    if (open < 0 || close < open) {
      return Optional.empty();
    }
    String[] fields = line.substring(close + 1).trim().split(" ");
    if (fields.length < 13) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Times(line.substring(open + 1, close),
          Long.parseLong(fields[11]) / (double) ticksPerSecond, Long.parseLong(fields[12]) / (double) ticksPerSecond));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * The tick rate from an auxiliary vector file: (type, value) pairs of native longs. It is the one
   * sysconf(_SC_CLK_TCK) returns, which the JDK does not expose.
   */
  static Optional<Long> ticksPerSecond(Path auxv) {
    ByteBuffer vector;
    try {
      vector = ByteBuffer.wrap(Files.readAllBytes(auxv)).order(ByteOrder.nativeOrder());
    } catch (IOException e) {
      return Optional.empty();
    }
    while (vector.remaining() >= 16) {
      long type = vector.getLong();
      long value = vector.getLong();
      if (type == AT_CLKTCK && value > 0) {
        return Optional.of(value);
      }
    }
    return Optional.empty();
  }

  private static Optional<Times> read(Path stat, long ticksPerSecond) {
    try {
      return parse(new String(Files.readAllBytes(stat), StandardCharsets.UTF_8), ticksPerSecond);
    } catch (IOException e) {
      return Optional.empty(); // the thread or process ended meanwhile
    }
  }
}
