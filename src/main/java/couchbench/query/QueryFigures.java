package couchbench.query;

import java.util.List;

/**
 * A Query run's own figures, for results.json and its page; the requests' latencies are Gatling's, by request name.
 *
 * @param load the run's load, in a line
 * @param loadSeconds how long loading the orders into every database took, before the measured part
 * @param builds each index's build
 * @param leftOut the classes asked by default that the server could not answer, each with why
 * @param work what the server said of its work, per request name
 */
public record QueryFigures(String load, double loadSeconds, List<IndexBuild> builds, List<String> leftOut,
    List<ServerWork> work) {

  /**
   * One index's build.
   *
   * @param database its database
   * @param scope "global" or "partitioned"
   * @param kind "view" or "mango"
   * @param ddoc its design document's name
   * @param seconds from the request creating it to a query of it answered (in every partition)
   * @param samplesSeen the _active_tasks reads that showed its indexer
   * @param samples the _active_tasks reads during the build (one every 200 ms)
   * @param progress the highest progress (%) they showed; -1 when none did
   * @param indexBytes its size on disk after the build (view_index.sizes.file); -1 where the server does not say
   * @param serverCpuSeconds the server's CPU time over the build, for a server on this machine; -1 for one elsewhere
   * @param memoryBefore the server's memory before it (resident, or Erlang's own count); -1 where not known
   * @param memoryAfter the same, after it
   */
  public record IndexBuild(String database, String scope, String kind, String ddoc, double seconds, int samplesSeen,
      int samples, long progress, long indexBytes, double serverCpuSeconds, long memoryBefore, long memoryAfter) {}

  /**
   * What the server said of the requests of one name.
   *
   * @param request the request name
   * @param replies the replies read
   * @param withStats those carrying Mango's execution_stats
   * @param docsExamined their total_docs_examined, added up
   * @param keysExamined their total_keys_examined, added up
   * @param resultsReturned their results_returned, added up
   * @param warnings the replies carrying a warning
   * @param firstWarning the first one's text, "" without
   */
  public record ServerWork(String request, long replies, long withStats, long docsExamined, long keysExamined,
      long resultsReturned, long warnings, String firstWarning) {}
}
