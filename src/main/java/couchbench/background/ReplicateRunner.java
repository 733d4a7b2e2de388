package couchbench.background;

import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.ReplicationBody;
import couchbench.couchdb.SchedulerJobs;
import couchbench.startup.RunClock;
import couchbench.targets.CouchTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * replicate: POST /_replicate of the database to a new one, which CouchDB answers once the replication is done;
 * _active_tasks' replication entry for the documents written so far, against the source's count, and the scheduler's
 * job beside it. The copy is deleted afterwards.
 *
 * @param follower what follows it
 * @param target the CouchDB loaded, which replicates to itself
 * @param database the database the load uses
 * @param index the task's place in the plan, which names the copy
 */
record ReplicateRunner(TaskFollower follower, CouchTarget target, String database, int index) implements TaskRunner {

  @Override
  public BackgroundTask run() {
    CouchDbClient client = follower.client();
    String replica = database + "_background_replica_" + index;
    String what = "POST /_replicate of " + database + " to " + replica;
    long start = RunClock.millis();
    long documents = Math.max(1, client.docCount(database));
    ObjectNode body = ReplicationBody.of(target, database, target, replica).put("create_target", true);
    List<BackgroundTask.Progress> progress = new ArrayList<>();
    IntSupplier activeTask = follower.activeTask(task -> task.path("type").asText().equals("replication")
        && SchedulerJobs.replicatesTo(task, replica)
        ? (int) Math.min(100, 100 * task.path("docs_written").asLong() / documents) : -1);
    ScheduledJob job = new ScheduledJob(client, replica);
    TaskFollower.Awaited awaited = follower.awaited(() -> client.exchange("POST", "/_replicate", body.toString(),
        follower.timeout()), progress, () -> {
          job.read();
          return activeTask.getAsInt();
        });
    try {
      return new BackgroundTask(BackgroundPlan.Kind.REPLICATE, what, start, awaited.end(), progress, 0,
          follower.fileBytes(replica), awaited.problem(), -1, job.describe());
    } finally {
      follower.cleanUp("the copy " + replica, () -> client.exchange("DELETE", "/" + replica, ""), awaited);
    }
  }
}
