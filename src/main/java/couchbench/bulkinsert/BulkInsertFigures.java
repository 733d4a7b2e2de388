package couchbench.bulkinsert;

import couchbench.results.ResultsException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * BulkInsert's own figures, as results.json keeps them under {@code figures}: what each step's tally counted, which
 * Gatling's entries cannot say (documents acknowledged, doc_count, the step's window, its progress, its CPU). A
 * merged run's figures ({@link #merged}) are those of its injectors added up, each injector having written every
 * step into databases of its own: counts and doc_count add, a step's window is the union of the injectors' windows,
 * the client's CPU adds (one JVM per injector), the server's is read once.
 *
 * @param steps every step of every round, in the order they ran
 * @param server the server's process on the injector's machine, e.g. {@code node (pid 4242)}; null when it is not
 *     there or could not be seen
 * @param loginRefused whether CouchDB refused the login during the run (in a merged run: in any injector's)
 */
public record BulkInsertFigures(List<Step> steps, String server, boolean loginRefused) {

  /** A step's start when it never started. */
  public static final long NOT_STARTED = -1;

  /** A step's doc_count when it was not read. */
  public static final long NOT_READ = -1;

  /**
   * What one step did.
   *
   * @param name its request name, {@link BulkInsertPlan#name(BulkInsertStep)}
   * @param users the virtual users that ran it: T, or in a merged run every injector's T
   * @param sent documents of the write requests that ended, with a reply or without
   * @param acknowledged documents the server acknowledged
   * @param replies write replies received
   * @param failedReplies write replies that reported a problem
   * @param docCount the databases' doc_count after the step, {@link #NOT_READ} when not read (in a merged run, when
   *     any injector's was not)
   * @param startMillis when its first user started, epoch milliseconds; {@link #NOT_STARTED} when it never did
   * @param seconds from its first user's start to its last user's end (from nanoTime), 0 if it never ended; in a
   *     merged run, the union of the injectors' windows
   * @param progress documents acknowledged against seconds since {@code startMillis}, at most
   *     {@link StepProgress#MOST_POINTS} points
   * @param cpu the CPU the step used; null when it did not run to its end
   */
  public record Step(String name, int users, long sent, long acknowledged, long replies, long failedReplies,
      long docCount, long startMillis, double seconds, List<Point> progress, Cpu cpu) {

    /** @return acknowledged documents per second of the step's window, 0 if it never ran */
    public double docsPerSecond() {
      return seconds > 0 ? acknowledged / seconds : 0;
    }
  }

  /**
   * A point of a step's progress.
   *
   * @param seconds since the step's start
   * @param documents acknowledged by then
   */
  public record Point(double seconds, long documents) {}

  /**
   * CPU seconds while a step ran; null where not known. The client's are a difference of two readings of one JVM (in
   * a merged run, the sum of every injector's JVM); the server's are its process's own running totals, read at the
   * step's start and end (in a merged run, the earliest and the latest reading of every injector that saw it), as a
   * server counter is.
   *
   * @param client the load generator's JVM, all its threads
   * @param user of it, in user mode
   * @param system of it, in the kernel
   * @param jit of it, by its JIT compiler threads
   * @param gc of it, by its garbage collector threads and the VM thread
   * @param serverAtStart the server process's CPU seconds since it started, at the step's start
   * @param serverAtEnd the same at the step's end
   */
  public record Cpu(Double client, Double user, Double system, Double jit, Double gc, Double serverAtStart,
      Double serverAtEnd) {

    /** @return the server's CPU seconds over the step, null when not known */
    public Double server() {
      return serverAtStart == null || serverAtEnd == null ? null : Math.max(0, serverAtEnd - serverAtStart);
    }
  }

  /**
   * The figures of the whole run from its injectors'.
   *
   * @param injectors each injector's figures, of the same plan, injector 0 first
   * @return their steps added up, as the class says
   * @throws ResultsException when the injectors ran different steps
   */
  public static BulkInsertFigures merged(List<BulkInsertFigures> injectors) {
    List<String> names = injectors.get(0).steps().stream().map(Step::name).toList();
    for (BulkInsertFigures injector : injectors) {
      if (!injector.steps().stream().map(Step::name).toList().equals(names)) {
        throw new ResultsException("BulkInsert's injectors ran different steps: " + names + " and "
            + injector.steps().stream().map(Step::name).toList() + ": figures of different runs");
      }
    }
    // One server, as each injector on its machine saw it; an injector elsewhere saw none.
    String server = injectors.stream().map(BulkInsertFigures::server).filter(Objects::nonNull).findFirst()
        .orElse(null);
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      int step = i;
      steps.add(merged(injectors.stream().map(injector -> injector.steps().get(step)).toList(),
          injectors.stream().map(injector -> server != null && server.equals(injector.server())).toList()));
    }
    return new BulkInsertFigures(List.copyOf(steps), server,
        injectors.stream().anyMatch(BulkInsertFigures::loginRefused));
  }

  /** One step of every injector; seesServer says which of them read the run's server. */
  private static Step merged(List<Step> same, List<Boolean> seesServer) {
    List<Step> started = same.stream().filter(step -> step.startMillis() != NOT_STARTED).toList();
    long start = started.stream().mapToLong(Step::startMillis).min().orElse(NOT_STARTED);
    // Each injector's window from the union's start, in seconds: its start's offset plus its own nanoTime seconds.
    List<Double> offsets = started.stream().map(step -> (step.startMillis() - start) / 1000.0).toList();
    double seconds = 0;
    for (int i = 0; i < started.size(); i++) {
      seconds = Math.max(seconds, offsets.get(i) + started.get(i).seconds());
    }
    boolean docCountRead = same.stream().allMatch(step -> step.docCount() != NOT_READ);
    List<Cpu> cpus = same.stream().map(Step::cpu).toList();
    List<Cpu> serverCpus = new ArrayList<>();
    for (int i = 0; i < same.size(); i++) {
      if (seesServer.get(i)) {
        serverCpus.add(same.get(i).cpu());
      }
    }
    return new Step(same.get(0).name(), same.stream().mapToInt(Step::users).sum(), sum(same, Step::sent),
        sum(same, Step::acknowledged), sum(same, Step::replies), sum(same, Step::failedReplies),
        docCountRead ? sum(same, Step::docCount) : NOT_READ, start, seconds, progress(started, offsets),
        cpus.contains(null) ? null : cpu(cpus, serverCpus));
  }

  private static long sum(List<Step> steps, Function<Step, Long> figure) {
    return steps.stream().mapToLong(figure::apply).sum();
  }

  /** A point of one injector's progress, on the union window's clock. */
  private record Reached(double seconds, int injector, long documents) {}

  /**
   * The documents of every injector acknowledged by each moment of the union window: at each point of any injector,
   * the sum of every injector's latest point by then (one injector's curve stays as it was), thinned to
   * {@link StepProgress#MOST_POINTS}.
   */
  private static List<Point> progress(List<Step> started, List<Double> offsets) {
    List<Reached> reached = new ArrayList<>();
    for (int i = 0; i < started.size(); i++) {
      for (Point point : started.get(i).progress()) {
        reached.add(new Reached(offsets.get(i) + point.seconds(), i, point.documents()));
      }
    }
    reached.sort(Comparator.comparingDouble(Reached::seconds)); // stable: ties keep the injectors' order
    long[] latest = new long[started.size()];
    long documents = 0;
    List<Point> points = new ArrayList<>();
    for (Reached point : reached) {
      documents += point.documents() - latest[point.injector()];
      latest[point.injector()] = point.documents();
      points.add(new Point(point.seconds(), documents));
    }
    return StepProgress.thinned(points);
  }

  /** The client's seconds added up over every injector's JVM; the server's from the earliest to the latest reading. */
  private static Cpu cpu(List<Cpu> cpus, List<Cpu> serverCpus) {
    // A process's running total only grows: its earliest reading is the smallest, its latest the largest.
    return new Cpu(total(cpus, Cpu::client), total(cpus, Cpu::user), total(cpus, Cpu::system), total(cpus, Cpu::jit),
        total(cpus, Cpu::gc),
        serverCpus.stream().map(Cpu::serverAtStart).filter(Objects::nonNull).min(Double::compare).orElse(null),
        serverCpus.stream().map(Cpu::serverAtEnd).filter(Objects::nonNull).max(Double::compare).orElse(null));
  }

  /** The sum, null when any is not known: a sum of some JVMs would pass for all of them. */
  private static Double total(List<Cpu> cpus, Function<Cpu, Double> figure) {
    List<Double> values = cpus.stream().map(figure).toList();
    return values.contains(null) ? null : values.stream().mapToDouble(Double::doubleValue).sum();
  }
}
