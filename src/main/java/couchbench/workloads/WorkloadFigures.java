package couchbench.workloads;

import couchbench.curve.StepFigures;
import couchbench.gatling.Pacing;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a Workload run's page shows beyond results.json's entries: per system, the records loaded and inserted, the
 * servers' counts beside them, and every operation's outcomes and latencies on both clocks ({@link OperationTimes}).
 *
 * @param workload the run's load in words ({@link WorkloadPlan#describe})
 * @param mixAsked each operation's proportion asked, by its word
 * @param target operations per second asked per system; 0 for as fast as the threads go
 * @param systems each system's figures, in the order they ran
 * @param staircase with -Dtargets, the staircase in words; else ""
 */
public record WorkloadFigures(String workload, Map<String, Double> mixAsked, double target,
    List<SystemFigures> systems, String staircase) {

  /**
   * One system's figures.
   *
   * @param system "couchdb" or "memcache"
   * @param loaded records the load phase inserted and the server acknowledged
   * @param inserted records the operations inserted and the server acknowledged
   * @param seconds from the first operation's intended start to the last one's end
   * @param serverCounts the server's own counts after the run, each in words beside what the run acknowledged
   * @param notes what the run did differently on this system, and why (e.g. get + set for read-modify-write)
   * @param operations each operation's figures, in {@link Operation}'s order
   * @param steps with -Dtargets, each step of the staircase, in the order they ran; else empty
   * @param highestRate with -Dtargets, the highest rate asked that met the goal; null when none did, or without
   */
  public record SystemFigures(String system, long loaded, long inserted, double seconds, List<String> serverCounts,
      List<String> notes, List<OperationFigures> operations, List<StepFigures> steps, Double highestRate) {

    /** @return operations run, whatever their outcome */
    public long operationsRun() {
      return operations.stream().mapToLong(OperationFigures::run).sum();
    }

    /**
     * @param target operations per second asked; 0 for as fast as the threads go
     * @return the rate run against the rate asked, and the operations that started late, in one line
     */
    public String pace(double target) {
      double ran = seconds == 0 ? 0 : operationsRun() / seconds;
      if (target <= 0) {
        return String.format(Locale.ROOT, "%s: ran %,.0f operations/s, as fast as the threads went", system, ran);
      }
      return String.format(Locale.ROOT, "%s: asked %,.0f operations/s, ran %,.0f/s; %,d operations started late"
          + " (more than %d ms after their intended start), up to %,.1f ms", system, target, ran, late(),
          Pacing.LATE_NANOS / 1_000_000, operations.stream().mapToDouble(OperationFigures::maxLagMillis)
              .max().orElse(0));
    }

    /**
     * @param target operations per second asked; 0 for as fast as the threads go
     * @return whether the run fell behind the target: operations started late, or the rate below 99% of it
     */
    public boolean behind(double target) {
      return target > 0 && (late() > 0 || (seconds > 0 && operationsRun() / seconds < target * 0.99));
    }

    private long late() {
      return operations.stream().mapToLong(OperationFigures::late).sum();
    }
  }

  /**
   * One operation's figures on one system.
   *
   * @param operation its word, e.g. "read-modify-write"
   * @param ok operations that succeeded, every read checked
   * @param conflicts writes refused because the record changed since it was read (CouchDB's 409, memcache's EXISTS)
   * @param torn reads that found a record's fields at two versions (one key per field, written meanwhile)
   * @param failed other failures
   * @param late operations that started more than {@link Pacing#LATE_NANOS} after their intended start
   * @param maxLagMillis the most an operation started after its intended start, in milliseconds
   * @param intended latencies of the successful ones from their intended start, nanoseconds (HdrHistogram, base64)
   * @param actual latencies of the successful ones from their actual start, nanoseconds (HdrHistogram, base64)
   */
  public record OperationFigures(String operation, long ok, long conflicts, long torn, long failed, long late,
      double maxLagMillis, String intended, String actual) {

    /** @return operations run, whatever their outcome */
    public long run() {
      return ok + conflicts + torn + failed;
    }
  }
}
