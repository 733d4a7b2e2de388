package couchbench.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.DesignDocument;
import couchbench.couchdb.IndexBuildFollower;
import couchbench.couchdb.MangoIndex;
import couchbench.couchdb.ReplyJson;
import couchbench.resources.ServerProcess;
import couchbench.resources.ServerSampler;
import couchbench.results.ServerSeries;
import couchbench.startup.Console;
import couchbench.startup.RunClock;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * The run's Nouveau index, in a design document of its own: title (the standard analyzer), body (English), body_de
 * (German), body_fr (French), tag (a
 * string: keyword, sortable, counted), n and day (numbers); checked for, made and its build timed, with the Nouveau
 * server's CPU time and memory where it runs on this machine (found by the port of the URL CouchDB is set to), in all
 * and second by second (the servers' sampler, with the index's documents).
 */
final class SearchIndex {

  /** The design document's name, and the index's. */
  static final String DDOC = "search";
  static final String INDEX = "docs";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String COUCHDB = "couchdb";
  private static final String FUNCTION = "function (doc) { if (typeof doc.title !== 'string') return;"
      + " index('text', 'title', doc.title); index('text', 'body', doc.body); index('text', 'body_de', doc.body_de);"
      + " index('text', 'body_fr', doc.body_fr);"
      + " index('string', 'tag', doc.tag);"
      + " index('double', 'n', doc.n); index('double', 'day', doc.day); }";
  // The function after -Drebuild's change: a field more (the title's words), so that every search's answer stays the
  // same while the function's signature, and with it the index Nouveau keeps, is new.
  private static final String REBUILT_FUNCTION = FUNCTION.substring(0, FUNCTION.length() - 1)
      + "index('double', 'title_words', doc.title.split(' ').length); }";

  private final CouchDbClient client;
  private final CouchTarget target;
  private final String database;
  private final boolean partitioned;

  SearchIndex(CouchDbClient client, CouchTarget target, String database, boolean partitioned) {
    this.client = client;
    this.target = target;
    this.database = database;
    this.partitioned = partitioned;
  }

  /** @return the path searches of the whole database ask, without the query string */
  String path() {
    return path(database, "");
  }

  /**
   * @param database the database
   * @param partition a partition of a partitioned database; "" for the whole database
   * @return the path a search of it asks, without the query string
   */
  static String path(String database, String partition) {
    return "/" + database + (partition.isEmpty() ? "" : "/_partition/" + SearchCall.encode(partition)) + "/_design/"
        + DDOC + "/_nouveau/" + INDEX;
  }

  /**
   * Checks that the server has Nouveau: CouchDB lists "nouveau" in GET /'s features once [nouveau] enable is true.
   *
   * @throws SearchException naming what the server is and what to set
   */
  void requireNouveau() {
    JsonNode welcome = ReplyJson.of(client.get("/").body());
    if (!welcome.has("couchdb")) {
      throw new SearchException("the server at " + target.baseUrl() + " is not Apache CouchDB (pouchdb-server has no"
          + " search): Search needs CouchDB 3.4 or later with Nouveau; give -Dcouchdb.url of one");
    }
    for (JsonNode feature : welcome.path("features")) {
      if (feature.asText().equals("nouveau")) {
        return;
      }
    }
    throw new SearchException("CouchDB " + welcome.path("version").asText("") + " at " + target.baseUrl()
        + " has no Nouveau (GET / lists no \"nouveau\" in features): set [nouveau] enable = true and url ="
        + " http://127.0.0.1:5987 in its local.ini, and start the Nouveau server beside it (bin/nouveau of"
        + " CouchDB's nouveau dist; it answers GET http://127.0.0.1:5988/healthcheck once ready)");
  }

  /**
   * Makes the index and waits for its first search: its build, timed and followed in _active_tasks.
   *
   * @param docs the documents loaded (the index's own count, where it gives one, is what its rate counts)
   * @return the build's figures
   * @throws SearchException when the server refuses the index or the search, e.g. without its Nouveau server
   */
  SearchFigures.Build build(int docs) {
    return timedBuild("build", docs, design(FUNCTION, ""));
  }

  /**
   * Changes the index function (a new revision of the design document, which Nouveau indexes anew under the new
   * function's signature) and waits for the new index's first search, timed as {@link #build} is. The new function
   * indexes a field more, which no search asks: every class's answer stays the same.
   *
   * @param docs the documents loaded (the index's own count, where it gives one, is what its rate counts)
   * @return the rebuild's figures
   * @throws SearchException when the server refuses the new revision or the search
   */
  SearchFigures.Build rebuild(int docs) {
    CouchReply current = client.get("/" + database + "/_design/" + DDOC);
    refusedUnless(current, "a read of _design/" + DDOC, 200);
    return timedBuild("rebuild", docs, design(REBUILT_FUNCTION, ReplyJson.of(current.body()).path("_rev").asText()));
  }

  private static String design(String function, String rev) {
    ObjectNode design = JSON.createObjectNode();
    if (!rev.isEmpty()) {
      design.put("_rev", rev);
    }
    design.putObject("nouveau").putObject(INDEX).put("default_analyzer", "standard").put("index", function)
        .putObject("field_analyzers").put("body", "english").put("body_de", "german").put("body_fr", "french")
        .put("tag", "keyword");
    return design.toString();
  }

  private SearchFigures.Build timedBuild(String what, int docs, String design) {
    Optional<LocalServer> nouveau = nouveauProcess();
    // Named so, whatever its process is called (beam.smp when found by its port): the build's columns are fixed.
    Optional<LocalServer> couchdb = ServerProcess.of(target).map(server -> new LocalServer(COUCHDB, server.pid(),
        server.dataDirectory()));
    double nouveauCpu = nouveau.map(ServerProcess::cpuSeconds).orElse(-1.0);
    long nouveauMemory = nouveau.map(ServerProcess::residentBytes).orElse(-1L);
    double couchCpu = couchdb.map(ServerProcess::cpuSeconds).orElse(-1.0);
    long start = System.nanoTime();
    long startMillis = RunClock.millis();
    IndexBuildFollower.Seen seen;
    ServerSeries sampled;
    long end;
    double nouveauSpent;
    long nouveauMemoryAfter;
    double couchSpent;
    try (IndexBuildFollower follower = IndexBuildFollower.start(client, database, DDOC)) {
      // The servers' processes alone (no CouchDB node's _stats: the build is no load), with the index's documents and
      // the progress the follower last read.
      AtomicLong documentsAskedAt = new AtomicLong(start);
      ServerSampler sampler = ServerSampler.start(Optional.empty(), List.of(), Stream.of(nouveau, couchdb)
          .flatMap(Optional::stream).toList(), List.of(new ServerSampler.Probe("index", "documents", "count",
              "search_index_documents", () -> {
                documentsAskedAt.set(System.nanoTime());
                return indexedDocs();
              }), new ServerSampler.Probe("build", "progress", "%", "search_build_progress",
              () -> follower.progress() < 0 ? OptionalDouble.empty() : OptionalDouble.of(follower.progress()))),
          ServerSampler.Cadence.EVERY_SECOND);
      try {
        refusedUnless(client.exchange("PUT", "/" + database + "/_design/" + DDOC, design),
            "the design document _design/" + DDOC, 201, 202);
        // A partitioned index answers a partition's searches alone; any one waits for the whole index to be built.
        refusedUnless(follower.await("GET", path(database, Corpus.partitions(partitioned).get(0))
            + "?q=*:*&limit=1", ""), "the first search of the index", 200);
        end = System.nanoTime();
        nouveauSpent = spent(nouveau, nouveauCpu);
        nouveauMemoryAfter = nouveau.map(ServerProcess::residentBytes).orElse(-1L);
        couchSpent = spent(couchdb, couchCpu);
        awaitSecondAfter(end, documentsAskedAt);
      } finally {
        sampled = sampler.stop();
      }
      seen = follower.seen();
    }
    double seconds = (end - start) / 1e9;
    JsonNode info = info();
    long indexed = info.path("num_docs").asLong(-1);
    SearchFigures.Build build = new SearchFigures.Build(seconds, (indexed < 0 ? docs : indexed) / seconds, 0,
        seen.samplesSeen(), seen.samples(), seen.progress(), indexed, info.path("disk_size").asLong(-1),
        nouveau.map(server -> server.name() + " (pid " + server.pid() + ")").orElse(""),
        nouveauSpent, nouveauMemory, nouveauMemoryAfter, couchSpent, bySecond(sampled, startMillis));
    Console.say(String.format(Locale.ROOT, "index %s: nouveau _design/%s in %s: %.2f s, %,.0f documents a second",
        what, DDOC, database, seconds, build.docsPerSecond()));
    return build;
  }

  // The sample of the second the build ended in, which has the whole index: its reading started after the end (the
  // sampler's stop lets a sample under way end). Up to 3 s: a sampler that lags leaves the last second out.
  private static void awaitSecondAfter(long end, AtomicLong documentsAskedAt) {
    long giveUp = end + 3_000_000_000L;
    try {
      while (documentsAskedAt.get() <= end && System.nanoTime() < giveUp) {
        Thread.sleep(20);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private JsonNode info() {
    return ReplyJson.of(client.get("/" + database + "/_design/" + DDOC + "/_nouveau_info/" + INDEX).body())
        .path("search_index");
  }

  // The index's documents now (buffered ones included: Nouveau counts its IndexWriter's); none before it is opened.
  private OptionalDouble indexedDocs() {
    long indexed = info().path("num_docs").asLong(-1);
    return indexed < 0 ? OptionalDouble.empty() : OptionalDouble.of(indexed);
  }

  // Each sample of the build as its second: its time since the PUT, -1 for a figure not read.
  private static List<SearchFigures.BuildSecond> bySecond(ServerSeries sampled, long startMillis) {
    List<SearchFigures.BuildSecond> seconds = new ArrayList<>();
    for (ServerSeries.Sample sample : sampled.samples()) {
      ToDoubleFunction<String> value = column -> {
        int index = sampled.columns().indexOf(column);
        return index < 0 || Double.isNaN(sample.values()[index]) ? -1 : sample.values()[index];
      };
      seconds.add(new SearchFigures.BuildSecond(Math.round((sample.epochMillis() - startMillis) / 100.0) / 10.0,
          value.applyAsDouble("nouveau cpu (% of a core)"), value.applyAsDouble("nouveau resident memory (MB)"),
          value.applyAsDouble(COUCHDB + " cpu (% of a core)"), value.applyAsDouble("index documents (count)"),
          value.applyAsDouble("build progress (%)")));
    }
    return seconds;
  }

  /**
   * Builds the indexes the other engines ask ({@link Comparison}), each timed from its creation to its first query
   * answered (without update=false: once it has every document).
   *
   * @param engines the run's engines
   * @return each build's seconds, by design document, in the order built
   * @throws SearchException when the server refuses an index or its query
   */
  Map<String, Double> buildComparisons(List<Engine> engines) {
    Map<String, Double> builds = new LinkedHashMap<>();
    if (engines.contains(Engine.VIEW)) {
      for (DesignDocument view : Comparison.VIEWS) {
        builds.put(view.name(), timed(view.name(), follower -> {
          refusedUnless(client.exchange("PUT", "/" + database + "/" + view.id(), view.json(Optional.empty())),
              "the design document " + view.id(), 201, 202);
          return follower.await("GET", view.queryPath(database) + "?limit=1", "");
        }));
      }
    }
    if (engines.contains(Engine.MANGO)) {
      for (MangoIndex mango : Comparison.MANGO) {
        builds.put(mango.ddoc(), timed(mango.ddoc(), follower -> {
          refusedUnless(client.exchange("POST", "/" + database + "/_index", mango.definition()),
              "the Mango index " + mango.name(), 200);
          ObjectNode find = JSON.createObjectNode();
          find.putObject("selector").putObject(mango.fields().get(0)).putNull("$gt");
          find.put("limit", 1).set("use_index", mango.useIndex());
          return follower.await("POST", "/" + database + "/_find", find.toString());
        }));
      }
    }
    if (engines.contains(Engine.MANGO_NOUVEAU)) {
      builds.put(Comparison.NOUVEAU_DDOC, timed(Comparison.NOUVEAU_DDOC, follower -> {
        refusedUnless(client.exchange("POST", "/" + database + "/_index", Comparison.nouveauIndex()),
            "Mango's Nouveau index", 200);
        ObjectNode find = JSON.createObjectNode();
        find.putObject("selector").putObject("n").put("$gte", 0);
        find.put("limit", 1).putArray("use_index").add(Comparison.NOUVEAU_DDOC).add(Comparison.NOUVEAU_NAME);
        return follower.await("POST", "/" + database + "/_find", find.toString());
      }));
    }
    return builds;
  }

  private double timed(String ddoc, Function<IndexBuildFollower, CouchReply> build) {
    long start = System.nanoTime();
    try (IndexBuildFollower follower = IndexBuildFollower.start(client, database, ddoc)) {
      refusedUnless(build.apply(follower), "the first query of _design/" + ddoc, 200);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Console.say(String.format(Locale.ROOT, "index build: _design/%s in %s: %.2f s", ddoc, database, seconds));
    return seconds;
  }

  /** @return the Nouveau server's process: the one listening on the port of CouchDB's [nouveau] url (read as admin) */
  Optional<LocalServer> nouveauProcess() {
    CouchReply reply = client.get("/_node/_local/_config/nouveau/url");
    if (reply.status() != 200) {
      return Optional.empty();
    }
    try {
      return ServerProcess.at(URI.create(ReplyJson.of(reply.body()).asText()), "nouveau");
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private void refusedUnless(CouchReply reply, String what, int... expected) {
    for (int ok : expected) {
      if (reply.status() == ok) {
        return;
      }
    }
    throw new SearchException("CouchDB at " + target.baseUrl() + " refused " + what + ": " + reply.status() + " "
        + reply.reason() + (reply.status() >= 500 ? " (is its Nouveau server running? CouchDB's [nouveau] url names"
        + " it)" : ""));
  }

  // The CPU time a process spent since it had spent before; -1 where it is not on this machine, or gone.
  private static double spent(Optional<LocalServer> server, double before) {
    double now = server.map(ServerProcess::cpuSeconds).orElse(-1.0);
    return before < 0 || now < 0 ? -1 : now - before;
  }
}
