package couchbench.replication;

import java.util.List;
import java.util.Map;

/**
 * A Replicate run's own figures, for results.json and its page.
 *
 * @param load the run's load, in a line
 * @param oneShots each one-shot replication: its time and what it wrote
 * @param watched each continuous replication's target, as its watcher saw it
 * @param writesAcknowledged the writes into the sources acknowledged while continuous replications ran
 * @param writesFailed those refused or unanswered
 * @param beforeAck writes seen on their target before their writer had the acknowledgement (timed as 0 from it)
 * @param lagMicros each write's time from its acknowledgement to its target (0 before it), an encoded HdrHistogram in
 *     microseconds
 * @param lagFromSentMicros each write's time from its send to its target, which has no such floor; null in results
 *     written before it was kept
 * @param lagBySecond the time from the acknowledgement, per second of the load by the writes' acknowledgement
 * @param scheduler what _scheduler said of each job; empty where the server has none
 * @param comparisons each target against its source, after the load
 */
public record ReplicateFigures(String load, List<OneShot> oneShots, List<Watched> watched, long writesAcknowledged,
    long writesFailed, long beforeAck, String lagMicros, String lagFromSentMicros, List<LagSecond> lagBySecond, List<Scheduler> scheduler,
    List<Comparison> comparisons) {

  /**
   * The writes acknowledged in one second of the load, and the longest time one took to reach its target.
   *
   * @param second seconds from the load's start
   * @param writes the writes acknowledged in it
   * @param maxLagMicros the longest lag of those, in microseconds
   */
  public record LagSecond(long second, long writes, long maxLagMicros) {}

  /**
   * One one-shot replication.
   *
   * @param job its number
   * @param seconds from its POST /_replicate to the reply
   * @param docsWritten what the reply's history says it wrote
   * @param error the server's error, "" when it replicated
   */
  public record OneShot(int job, double seconds, long docsWritten, String error) {}

  /**
   * One continuous replication's target.
   *
   * @param job its number
   * @param docs of the documents its source held as it started, those seen on the target
   * @param writes of those written while it ran, those seen
   * @param duplicated changes seen twice
   * @param missing documents the source acknowledged that the target lacked at the end
   * @param copySeconds from the load's start to the last of the first documents seen on the target; -1 if never
   * @param convergeSeconds from the last write acknowledged to the last document seen; -1 without writes
   */
  public record Watched(int job, long docs, long writes, long duplicated, long missing, double copySeconds,
      double convergeSeconds) {}

  /**
   * What CouchDB's replication scheduler said of one job, once a second.
   *
   * @param job its number
   * @param samples the reads of _scheduler
   * @param states each state seen, and in how many reads
   * @param notRunning each stretch in a state other than running, e.g. "crashing from 12 s to 15 s"
   * @param errors the highest error_count seen
   * @param crashes the "crashed" events in its history
   * @param checkpoints the distinct source seqs it checkpointed
   * @param firstError the first error it reported, "" without
   */
  public record Scheduler(int job, int samples, Map<String, Integer> states, List<String> notRunning, long errors,
      long crashes, int checkpoints, String firstError) {}

  /**
   * One target against its source, after the load: every id and its winning revision.
   *
   * @param job its number
   * @param sourceDocs the source's documents
   * @param targetDocs the target's documents
   * @param missing ids of the source the target lacks
   * @param differing ids both hold with another revision
   * @param extra ids of the target the source lacks
   * @param sourceDigest SHA-256 of the source's "id rev" lines, in id order (16 hex digits)
   * @param targetDigest the same of the target
   */
  public record Comparison(int job, long sourceDocs, long targetDocs, long missing, long differing, long extra,
      String sourceDigest, String targetDigest) {

    /** @return whether the target holds exactly the source's documents and revisions */
    public boolean same() {
      return missing == 0 && differing == 0 && extra == 0 && sourceDigest.equals(targetDigest);
    }
  }
}
