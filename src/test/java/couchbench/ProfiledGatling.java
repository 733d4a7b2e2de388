package couchbench;

import io.gatling.app.Gatling;
import java.nio.file.Path;
import one.profiler.AsyncProfiler;

/**
 * Benchmark tool, not a test: a Gatling run with async-profiler sampling its CPU over one window of the
 * steady part only, written as a flame graph (HTML) and as collapsed stacks (text, for sums by frame).
 * The window is given in seconds from the JVM's start, so that the start, the JIT's first minutes and
 * the warm-up stay out of it, as in bench/memcache-cpu-by-thread.sh's window of /proc figures.
 *
 * <p>{@code java -Dprofile.from=22 -Dprofile.seconds=8 -Dprofile.out=/tmp/run-get -cp ...
 * couchbench.ProfiledGatling --simulation MemGet ...} (Gatling's own arguments). {@code
 * -Dprofile.event}: cpu (perf events, with kernel frames) by default; itimer where perf events are
 * not allowed.
 */
public final class ProfiledGatling {

  private ProfiledGatling() {}

  public static void main(String[] args) throws Exception {
    long from = Long.getLong("profile.from", 22);
    long seconds = Long.getLong("profile.seconds", 8);
    Path out = Path.of(System.getProperty("profile.out", "profile"));
    String event = System.getProperty("profile.event", "cpu");
    Thread window = new Thread(() -> profile(event, from, seconds, out), "profile-window");
    window.setDaemon(true);
    window.start();
    Gatling.main(args);
  }

  private static void profile(String event, long from, long seconds, Path out) {
    try {
      AsyncProfiler profiler = AsyncProfiler.getInstance();
      Thread.sleep(from * 1000);
      // 1 ms between samples: about 10,000 over an 8 s window of busy cores, at a cost of about 1% of the CPU.
      profiler.execute("start,event=" + event + ",interval=1ms,threads");
      Thread.sleep(seconds * 1000);
      profiler.execute("stop,file=" + out + ".html,title=" + out.getFileName());
      profiler.execute("collapsed,file=" + out + ".collapsed");
      System.err.println("couchbench: profile of " + seconds + " s written to " + out + ".html");
    } catch (Exception e) {
      System.err.println("couchbench: profiling failed: " + e);
    }
  }
}
