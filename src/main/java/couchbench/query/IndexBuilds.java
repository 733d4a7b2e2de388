package couchbench.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.DesignDocument;
import couchbench.couchdb.IndexBuildFollower;
import couchbench.couchdb.MangoIndex;
import couchbench.resources.CouchResources;
import couchbench.resources.ResourceSnapshot;
import couchbench.startup.Console;
import couchbench.resources.ServerProcess;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Each index built after the orders are loaded, one after the other, and timed: from the request that creates it (the
 * design document PUT, or POST /_index) to a query of it answered (without update=false: CouchDB answers once the index
 * is up to date) in every partition of a partitioned database, whose partitions' shards build apart. The build is
 * followed as long as it takes ({@link IndexBuildFollower}: _active_tasks read every 200 ms for the indexer's progress,
 * a line every 5 s); the server's CPU time, memory and the index's size on disk are read before and after.
 */
final class IndexBuilds {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final QueryPlan plan;
  private final CouchTarget target;
  private final CouchDbClient client;
  private final Optional<LocalServer> local;

  IndexBuilds(QueryPlan plan, CouchTarget target, CouchDbClient client) {
    this.plan = plan;
    this.target = target;
    this.client = client;
    this.local = ServerProcess.of(target);
  }

  /**
   * Builds every index of every database of the run.
   *
   * @return each build's figures
   * @throws QueryException when the server refuses an index
   */
  List<QueryFigures.IndexBuild> buildAll() {
    List<QueryFigures.IndexBuild> builds = new ArrayList<>();
    for (Scope scope : plan.scopes()) {
      String views = plan.database(scope, false);
      for (DesignDocument view : QueryIndexes.views(plan.sumReduce())) {
        builds.add(timed(views, scope, "view", view.name(), follower -> {
          refusedUnless(client.exchange("PUT", "/" + views + "/" + view.id(), view.json(Optional.empty())),
              "the design document " + view.id(), 201, 202);
          for (Optional<String> partition : partitions(scope)) {
            refusedUnless(follower.await("GET", view.queryPath(views, partition) + "?limit=1"
                + (view.reduce().isPresent() ? "&reduce=false" : ""), ""), "a query of " + view.id(), 200);
          }
        }));
      }
      String mango = plan.database(scope, true);
      for (MangoIndex index : QueryIndexes.MANGO) {
        builds.add(timed(mango, scope, "mango", index.ddoc(), follower -> {
          refusedUnless(client.exchange("POST", "/" + mango + "/_index", index.definition()),
              "the Mango index " + index.name(), 200);
          for (Optional<String> partition : partitions(scope)) {
            ObjectNode find = JSON.createObjectNode();
            find.set("selector", everything(index, partition.orElse(Orders.owner(0))));
            find.put("limit", 1).set("use_index", index.useIndex());
            refusedUnless(follower.await("POST", "/" + mango + partition.map(p -> "/_partition/" + p).orElse("")
                + "/_find", find.toString()), "a query of the Mango index " + index.name(), 200);
          }
        }));
      }
    }
    return builds;
  }

  // A selector the index serves that every order of a customer matches, less what its partial filter leaves out.
  private static ObjectNode everything(MangoIndex index, String owner) {
    ObjectNode selector = JSON.createObjectNode();
    index.fields().forEach(field -> selector.putObject(field).putNull("$gt"));
    selector.put("owner", owner);
    index.partial().ifPresent(filter -> selector.setAll((ObjectNode) MangoIndex.parse(filter)));
    return selector;
  }

  private List<Optional<String>> partitions(Scope scope) {
    if (scope == Scope.GLOBAL) {
      return List.of(Optional.empty());
    }
    List<Optional<String>> all = new ArrayList<>();
    for (int owner = 0; owner < plan.owners(); owner++) {
      all.add(Optional.of(Orders.owner(owner)));
    }
    return all;
  }

  private void refusedUnless(CouchReply reply, String what, int... expected) {
    for (int ok : expected) {
      if (reply.status() == ok) {
        return;
      }
    }
    throw new QueryException("CouchDB at " + target.baseUrl() + " refused " + what + ": " + reply.status() + " "
        + reply.reason());
  }

  private QueryFigures.IndexBuild timed(String database, Scope scope, String kind, String ddoc,
      Consumer<IndexBuildFollower> build) {
    ResourceSnapshot before = CouchResources.snapshot(client, database, local);
    long start = System.nanoTime();
    IndexBuildFollower.Seen seen;
    try (IndexBuildFollower follower = IndexBuildFollower.start(client, database, ddoc)) {
      build.accept(follower);
      seen = follower.seen();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    ResourceSnapshot after = CouchResources.snapshot(client, database, local);
    ResourceSnapshot change = after.minus(before);
    QueryFigures.IndexBuild figures = new QueryFigures.IndexBuild(database, scope.value(), kind, ddoc, seconds,
        seen.samplesSeen(), seen.samples(), seen.progress(), indexBytes(database, ddoc),
        ending(change, " cpu time (s)").map(BigDecimal::doubleValue).orElse(-1.0), memory(before), memory(after));
    Console.say(String.format(Locale.ROOT, "index build: %s %s in %s: %.2f s", kind, ddoc, database, seconds));
    return figures;
  }

  // The server's resident memory where it runs here, else what CouchDB counts of its own.
  private static long memory(ResourceSnapshot snapshot) {
    return ending(snapshot, " resident memory (bytes)").or(() -> snapshot.value("couchdb erlang memory (bytes)"))
        .map(BigDecimal::longValue).orElse(-1L);
  }

  private static Optional<BigDecimal> ending(ResourceSnapshot snapshot, String suffix) {
    return snapshot.figures().entrySet().stream().filter(figure -> figure.getKey().endsWith(suffix))
        .map(Map.Entry::getValue).flatMap(Optional::stream).findFirst();
  }

  // GET /db/_design/x/_info: CouchDB 3's view_index.sizes.file; -1 where the server does not say.
  private long indexBytes(String database, String ddoc) {
    try {
      JsonNode info = JSON.readTree(client.get("/" + database + "/_design/" + ddoc + "/_info").body());
      return info.path("view_index").path("sizes").path("file").asLong(-1);
    } catch (IOException e) {
      return -1;
    }
  }
}
