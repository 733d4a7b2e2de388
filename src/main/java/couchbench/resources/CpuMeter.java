package couchbench.resources;

import couchbench.targets.LocalServer;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * CPU time of the load generator (this JVM) and of a server on the same machine, read at moments so
 * that a phase of a run can say what each side used: on a small machine every second the client
 * spends is taken from the server. The client's time is split into user and system, and its JIT
 * compiler and garbage collector threads are counted apart, from the kernel's per-thread counters
 * (Linux; elsewhere those parts are n/a).
 */
public final class CpuMeter {

  private static final long SELF = ProcessHandle.current().pid();

  private final Optional<LocalServer> server;

  private CpuMeter(Optional<LocalServer> server) {
    this.server = server;
  }

  /**
   * A meter of this JVM and, when there is one, the server process.
   *
   * @param server the server's process on this machine, if known
   * @return the meter
   */
  public static CpuMeter of(Optional<LocalServer> server) {
    return new CpuMeter(server);
  }

  /** @return the server this meter reads, if any */
  public Optional<LocalServer> server() {
    return server;
  }

  /**
   * Reads every counter now; takes well under a millisecond.
   *
   * @return the counters
   */
  public Reading read() {
    double jit = 0;
    double gc = 0;
    List<ProcStat.Times> threads = ProcStat.threads(SELF);
    for (ProcStat.Times thread : threads) {
      switch (kind(thread.name())) {
        case JIT -> jit += thread.seconds();
        case GC -> gc += thread.seconds();
        case OTHER -> { }
      }
    }
    Optional<ProcStat.Times> self = ProcStat.process(SELF);
    return new Reading(seconds(SELF),
        self.map(ProcStat.Times::userSeconds), self.map(ProcStat.Times::systemSeconds),
        threads.isEmpty() ? Optional.empty() : Optional.of(jit),
        threads.isEmpty() ? Optional.empty() : Optional.of(gc),
        server.flatMap(process -> seconds(process.pid())));
  }

  enum Kind { JIT, GC, OTHER }

  /**
   * What a HotSpot thread does, by its name as the kernel keeps it: "C1 CompilerThre", "C2
   * CompilerThre" compile; "GC Thread#0", "G1 Refine#0", "G1 Conc#0" and the "VM Thread", which runs
   * the stop-the-world pauses, collect.
   */
  static Kind kind(String threadName) {
    if (threadName.startsWith("C1 Compiler") || threadName.startsWith("C2 Compiler")) {
      return Kind.JIT;
    }
    if (threadName.startsWith("GC Thread") || threadName.startsWith("G1 ") || threadName.equals("VM Thread")) {
      return Kind.GC;
    }
    return Kind.OTHER;
  }

  private static Optional<Double> seconds(long pid) {
    return LocalProcess.cpuSeconds(pid).map(BigDecimal::doubleValue);
  }

  /**
   * CPU seconds used so far, or between two readings; empty where the figure is not known.
   *
   * @param client this JVM, all its threads
   * @param user of it, in user mode
   * @param system of it, in the kernel
   * @param jit of it, by the JIT compiler threads
   * @param gc of it, by the garbage collector threads and the VM thread
   * @param server the server process
   */
  public record Reading(Optional<Double> client, Optional<Double> user, Optional<Double> system,
      Optional<Double> jit, Optional<Double> gc, Optional<Double> server) {

    /**
     * What was used since an earlier reading.
     *
     * @param earlier the reading taken first
     * @return each figure's growth; empty where either reading lacks it
     */
    public Reading since(Reading earlier) {
      return new Reading(minus(client, earlier.client), minus(user, earlier.user), minus(system, earlier.system),
          minus(jit, earlier.jit), minus(gc, earlier.gc), minus(server, earlier.server));
    }

    private static Optional<Double> minus(Optional<Double> later, Optional<Double> earlier) {
      // A thread that ended between the readings takes its counts with it: a part never goes below 0.
      return later.flatMap(l -> earlier.map(e -> Math.max(0, l - e)));
    }
  }
}
