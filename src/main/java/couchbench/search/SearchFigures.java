package couchbench.search;

import couchbench.curve.StepFigures;
import java.util.List;
import java.util.Map;

/**
 * A Search run's own figures, for results.json and its page; the searches' latencies are Gatling's, by request name.
 *
 * @param load the run's load, in a line
 * @param loadSeconds how long loading the documents took, before the measured part
 * @param build the index's build
 * @param rebuild with -Drebuild, the index's rebuild after its function changed; null without
 * @param writes the documents the users wrote by their share of the mix, each acknowledged
 * @param freshness the freshness writers' searches for their writes
 * @param staircase under -Dtarget or -Dtargets, the staircase in words; "" without
 * @param steps under -Dtarget or -Dtargets, each class's steps (of each engine), in the order they ran, by request
 *     name; empty without
 * @param comparisonBuilds with -Dengines, each other engine's index build, seconds by design document: from its
 *     creation to its first query answered
 */
public record SearchFigures(String load, double loadSeconds, Build build, Build rebuild, long writes,
    Freshness freshness, String staircase, Map<String, List<StepFigures>> steps,
    Map<String, Double> comparisonBuilds) {

  /**
   * The freshness writers' searches for their own writes, each timed whole from the write's acknowledgement to the
   * reply that had it (the group "write found by search").
   *
   * @param searches the searches asked
   * @param stale those whose reply lacked the write, though asked after its acknowledgement
   * @param found the writes a search found
   * @param notFound the writes no search found within {@link SearchPlan#FIND_WITHIN}
   */
  public record Freshness(long searches, long stale, long found, long notFound) {}

  /**
   * The index's build: from the design document's PUT to the first search answered (CouchDB answers a search once the
   * index has every document).
   *
   * @param seconds how long it took
   * @param docsPerSecond the documents indexed a second: the index's documents after it (those written meanwhile
   *     included) over its time
   * @param writes the documents written and acknowledged while it built (-DbuildRate), and in the second after it that
   *     the last of {@code bySecond} waits for; each found by a search after it
   * @param samplesSeen the reads of _active_tasks that listed its search_indexer
   * @param samples the reads of _active_tasks during the build (one every 200 ms)
   * @param progress the highest progress (%) they listed; -1 when none did
   * @param indexedDocs the index's documents after it, as _nouveau_info says
   * @param diskBytes its size on disk, as _nouveau_info says (Nouveau commits every 30 s by default: 0 until then)
   * @param nouveau the Nouveau server's process, e.g. "nouveau (pid 1234)"; "" where it is not on this machine
   * @param nouveauCpuSeconds its CPU time over the build; -1 where not on this machine
   * @param nouveauMemoryBefore its resident memory before the build, in bytes; -1 where not on this machine
   * @param nouveauMemoryAfter the same, after it
   * @param couchCpuSeconds CouchDB's CPU time over the build (it reads the documents and runs the index function);
   *     -1 where not on this machine
   * @param bySecond the build second by second; empty where nothing was sampled (null in a results.json of before)
   */
  public record Build(double seconds, double docsPerSecond, long writes, int samplesSeen, int samples, int progress,
      long indexedDocs, long diskBytes, String nouveau, double nouveauCpuSeconds, long nouveauMemoryBefore,
      long nouveauMemoryAfter, double couchCpuSeconds, List<BuildSecond> bySecond) {

    public Build {
      bySecond = bySecond == null ? List.of() : List.copyOf(bySecond);
    }

    /**
     * @param acknowledged the documents written and acknowledged while it built
     * @return the same build, with them
     */
    Build withWrites(long acknowledged) {
      return new Build(seconds, docsPerSecond, acknowledged, samplesSeen, samples, progress, indexedDocs, diskBytes,
          nouveau, nouveauCpuSeconds, nouveauMemoryBefore, nouveauMemoryAfter, couchCpuSeconds, bySecond);
    }
  }

  /**
   * One second of a build, read by the servers' sampler ({@link couchbench.resources.ServerSampler}) at the second's
   * end; -1 where a figure was not read that second (a CPU rate needs two readings: none in the first second; the
   * processes of a server elsewhere; _nouveau_info before Nouveau opened the index).
   *
   * @param second seconds since the design document's PUT
   * @param nouveauCpu the Nouveau server's CPU over the second, % of a core
   * @param nouveauMemory its resident memory, MB
   * @param couchCpu CouchDB's CPU over the second, % of a core
   * @param indexedDocs the index's documents, as _nouveau_info said
   * @param progress the build's progress as _active_tasks last listed it (read every 200 ms), %
   */
  public record BuildSecond(double second, double nouveauCpu, double nouveauMemory, double couchCpu,
      double indexedDocs, double progress) {}
}
