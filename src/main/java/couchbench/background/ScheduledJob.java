package couchbench.background;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.ReplyJson;
import couchbench.couchdb.SchedulerJobs;
import couchbench.startup.OneLineException;

/**
 * A one-shot replication as CouchDB's replication scheduler lists it ({@code GET /_scheduler/jobs}), read beside
 * _active_tasks: how often it was listed, and how often it crashed and why, which _active_tasks does not say.
 */
final class ScheduledJob {

  private final CouchDbClient client;
  private final String target;
  private int reads;
  private int listed;
  private long crashes;
  private String lastCrash = "";

  /**
   * @param client the server that runs it
   * @param target the replication's target database, by which the job is known
   */
  ScheduledJob(CouchDbClient client, String target) {
    this.client = client;
    this.target = target;
  }

  /** One read of _scheduler/jobs; one unanswered is a read where the job was not listed. */
  void read() {
    reads++;
    try {
      for (JsonNode job : ReplyJson.of(client.get("/_scheduler/jobs").body()).path("jobs")) {
        if (SchedulerJobs.replicatesTo(job, target)) {
          listed++;
          crashes = Math.max(crashes, SchedulerJobs.crashes(job));
          lastCrash = SchedulerJobs.lastCrash(job).orElse(lastCrash);
        }
      }
    } catch (OneLineException e) {
      // unanswered: counted as a read that did not list it
    }
  }

  /** @return e.g. "in _scheduler/jobs: 40 of 87 reads, no crash" */
  String describe() {
    return "in _scheduler/jobs: " + listed + " of " + reads + " reads, " + (crashes == 0 ? "no crash"
        : "crashed " + crashes + " times (last: " + lastCrash + ")");
  }
}
