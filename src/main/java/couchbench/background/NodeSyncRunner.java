package couchbench.background;

import couchbench.startup.OneLineException;
import couchbench.startup.RunClock;
import java.util.ArrayList;
import java.util.List;

/**
 * nodesync: a cluster node the load does not use restarted ({@link NodeSync}), then read until its copies caught up.
 *
 * @param follower what follows it
 * @param database the database the load uses
 * @param node the node to restart, from {@link BackgroundWork#nodeToRestart}
 */
record NodeSyncRunner(TaskFollower follower, String database, String node) implements TaskRunner {

  @Override
  public BackgroundTask run() {
    String what = "POST /_node/" + node + "/_restart, then its copies of " + database + " caught up";
    long start = RunClock.millis();
    NodeSync sync;
    try {
      sync = NodeSync.restart(follower.client(), database, node);
    } catch (OneLineException e) {
      return new BackgroundTask(BackgroundPlan.Kind.NODESYNC, what, start, -1, List.of(), -1, -1, "refused: "
          + e.getMessage(), -1, null);
    }
    List<BackgroundTask.Progress> progress = new ArrayList<>();
    String problem = follower.follow(progress, sync::read, sync::caughtUp);
    // From the restart itself, as the detail's time away counts: the shard map's reads before it are not the task's.
    return new BackgroundTask(BackgroundPlan.Kind.NODESYNC, what, sync.restartMillis(), problem == null
        ? sync.caughtUpMillis() : -1, progress, -1, -1, problem, sync.backMillis(), sync.describe());
  }
}
