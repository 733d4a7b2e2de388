package couchbench.bulkinsert;

/**
 * One step of the BulkInsert sweep: {@code threads} virtual users together create documents in a
 * fresh database, {@code batchSize} per {@code _bulk_docs} request, or one per {@code POST /db}.
 *
 * @param single true for one document per {@code POST /db} (the seed's ser.py and par.py)
 * @param batchSize documents per request (1 for single)
 * @param threads concurrent virtual users
 * @param requestsPerUser requests each user sends at least
 * @param database the step's own database
 * @param round the round the step belongs to, from 1 (-Drounds)
 */
public record BulkInsertStep(
    boolean single, int batchSize, int threads, int requestsPerUser, String database, int round) {

  /**
   * The step's name, the same in every round, e.g. {@code bulk B=64 T=2}; Gatling's request and scenario names are
   * {@link BulkInsertPlan#name(BulkInsertStep)}.
   *
   * @return the name
   */
  public String name() {
    return single ? "single T=" + threads : "bulk B=" + batchSize + " T=" + threads;
  }

  /**
   * The documents this step sends at least, before its time rule ({@link StepLength}) makes it longer.
   *
   * @return requests x batch size x threads
   */
  public long documents() {
    return (long) requestsPerUser * batchSize * threads;
  }

  /**
   * The request path, relative to the server.
   *
   * @return {@code /db} for single, {@code /db/_bulk_docs} for bulk
   */
  public String path() {
    return single ? "/" + database : "/" + database + "/_bulk_docs";
  }
}
