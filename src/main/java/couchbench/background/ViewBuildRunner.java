package couchbench.background;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.ReplyJson;
import couchbench.startup.RunClock;
import java.util.ArrayList;
import java.util.List;

/**
 * viewbuild: a new design document, its view queried until built (the query answers once the index is up to date);
 * then it is deleted, so that the database's documents are the load's again, and its index files cleaned up.
 *
 * @param follower what follows it
 * @param database the database the load uses
 * @param index the task's place in the plan, which names its design document
 */
record ViewBuildRunner(TaskFollower follower, String database, int index) implements TaskRunner {

  @Override
  public BackgroundTask run() {
    CouchDbClient client = follower.client();
    String ddoc = "_design/couchbench_background_" + index + "_" + RunClock.millis();
    String path = "/" + database + "/" + ddoc;
    String what = "a view built: PUT " + path + " and a query of it";
    long start = RunClock.millis();
    String refused = follower.refusal(() -> client.exchange("PUT", path,
        "{\"views\":{\"all\":{\"map\":\"function (doc) { emit(doc._id, null); }\"}}}"), 201, 202);
    if (refused != null) {
      return new BackgroundTask(BackgroundPlan.Kind.VIEWBUILD, what, start, -1, List.of(), 0, -1, refused);
    }
    List<BackgroundTask.Progress> progress = new ArrayList<>();
    TaskFollower.Awaited awaited = follower.awaited(() -> client.exchange("GET", path + "/_view/all?limit=1", "",
        follower.timeout()), progress, follower.activeTask(task -> task.path("type").asText().equals("indexer")
            && task.path("design_document").asText().equals(ddoc) ? task.path("progress").asInt(0) : -1));
    try {
      long bytes = ReplyJson.of(client.get(path + "/_info").body()).path("view_index").path("sizes").path("file")
          .asLong(-1);
      return new BackgroundTask(BackgroundPlan.Kind.VIEWBUILD, what, start, awaited.end(), progress, 0, bytes,
          awaited.problem());
    } finally {
      follower.cleanUp("the design document " + ddoc, () -> {
        String rev = ReplyJson.of(client.get(path).body()).path("_rev").asText("");
        client.exchange("DELETE", path + "?rev=" + rev, "");
        client.exchange("POST", "/" + database + "/_view_cleanup", "{}");
      }, awaited);
    }
  }
}
