package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The console's progress line: counts, the rate since the previous line, failures, the time left. */
class ProgressTest {

  /** A source whose counts and time left the test sets. */
  private static final class Counted implements Progress.Source {
    private final String counted;
    long requests;
    long failed;
    Duration left;

    Counted(String counted) {
      this.counted = counted;
    }

    @Override
    public String counted() {
      return counted;
    }

    @Override
    public Progress.Counts counts() {
      return new Progress.Counts(requests, failed);
    }

    @Override
    public Optional<Duration> left() {
      return Optional.ofNullable(left);
    }
  }

  @Test
  void shouldSayTheCountsTheRateSinceTheLastLineAndTheTimeLeft() {
    AtomicLong nanos = new AtomicLong(1_000_000_000L);
    Counted writes = new Counted("writes");
    Progress progress = new Progress(List.of(writes), nanos::get);

    writes.requests = 12_345;
    writes.left = Duration.ofSeconds(110);
    nanos.addAndGet(5_000_000_000L);
    assertEquals("so far 12,345 writes, 2,469/s, 0 failed; about 1 min 50 s left", progress.line());

    writes.requests = 13_345;
    writes.failed = 3;
    writes.left = null;
    nanos.addAndGet(2_000_000_000L);
    assertEquals("so far 13,345 writes, 500/s, 3 failed", progress.line(), "the rate since the previous line");
  }

  @Test
  void shouldSayEverySourceAndTheFirstTimeLeftGiven() {
    AtomicLong nanos = new AtomicLong();
    Counted memcache = new Counted("memcache requests");
    Counted writes = new Counted("writes");
    writes.left = Duration.ofSeconds(45);
    Progress progress = new Progress(List.of(memcache, writes), nanos::get);
    memcache.requests = 1000;
    memcache.failed = 1;
    writes.requests = 10;
    nanos.set(10_000_000_000L);

    assertEquals("so far 1,000 memcache requests, 100/s, 1 failed; 10 writes, 1/s, 0 failed; about 45 s left",
        progress.line());
  }

  @Test
  void shouldPrintNothingWithoutASource() {
    assertTrue(Progress.of(List.of()).isEmpty(), "no line that would count nothing");
  }

  @Test
  void shouldSayATimeSpanInWords() {
    assertEquals("0 s", Progress.duration(Duration.ofMillis(-20)));
    assertEquals("59 s", Progress.duration(Duration.ofMillis(59_400)));
    assertEquals("1 min", Progress.duration(Duration.ofSeconds(60)));
    assertEquals("3 min 5 s", Progress.duration(Duration.ofSeconds(185)));
    assertEquals("1 h 2 min", Progress.duration(Duration.ofSeconds(3725)));
    assertEquals("2 h", Progress.duration(Duration.ofHours(2)));
  }
}
