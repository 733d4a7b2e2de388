package couchbench.changes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchReply;
import couchbench.feed.ChangesFeed;
import couchbench.feed.FeedKind;
import couchbench.feed.FeedRequest;
import couchbench.feed.FeedTarget;
import couchbench.ledger.WriteLedger;
import couchbench.results.Progress;
import couchbench.results.SeriesKind;
import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import couchbench.targets.CouchTarget;
import couchbench.targets.Credentials;
import io.gatling.javaapi.core.ChainBuilder;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * A Changes run's load: its databases, made fresh and checked before the load (the filter and feeds the server must
 * take); the writers; the listeners of each feed, each following a database through a node, the listeners spread over
 * both; and the figures of both after the load.
 */
public final class ChangesLoad implements ExperimentLoad<ChangesFigures> {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final ChangesPlan plan;
  private final CouchTarget target;
  private final WriteLedger ledger;
  private final Writers writers;
  private final CatchUp catchUp;
  private final Visibility visibility;
  private final Map<FeedKind, FeedTally> tallies = new LinkedHashMap<>();
  private final Map<FeedKind, AtomicInteger> listenerNumbers = new LinkedHashMap<>();
  private final List<String> since = new ArrayList<>();

  /**
   * @param plan the run's plan
   * @param target the CouchDB server: one node, or the nodes of a cluster
   */
  public ChangesLoad(ChangesPlan plan, CouchTarget target) {
    this.plan = plan;
    this.target = target;
    this.ledger = new WriteLedger(plan.writers(), plan.documents());
    plan.listeners().forEach((kind, count) -> {
      tallies.put(kind, new FeedTally(kind, count));
      listenerNumbers.put(kind, new AtomicInteger());
    });
    this.visibility = plan.visibility() ? new Visibility(plan, target, ledger) : null;
    this.writers = new Writers(plan, target, ledger,
        () -> tallies.values().stream().allMatch(FeedTally::allAttached), visibility);
    this.catchUp = new CatchUp(plan, target);
  }

  /**
   * Before the load: the databases made empty, where each feed starts, and what the server must take checked.
   *
   * @throws ChangesException when the server refuses the filter, or answers a feed as another
   * @throws couchbench.couchdb.CouchDbException when it does not answer as CouchDB
   */
  @Override
  public void prepare() {
    CouchDbClient client = new CouchDbClient(target);
    if (plan.catchesUp()) {
      client.createDatabase(plan.databaseNames().get(0));
      catchUp.fill(client);
      return;
    }
    if (plan.visibility()) {
      if (!target.nodes().cluster()) {
        throw new ChangesException("-Dvisibility=nodes reads through the nodes a write did not go through: list a"
            + " cluster's nodes in -Dcouchdb.url, e.g. http://a:5984,http://b:5984,http://c:5984");
      }
      client.createDatabase(plan.databaseNames().get(0));
      visibility.loadStarts();
      return;
    }
    for (int database = 0; database < plan.databases(); database++) {
      String name = plan.databaseNames().get(database);
      client.createDatabase(name);
      since.add(plan.since().orElseGet(() -> updateSeq(client, name)));
      FeedRequest request = request(database, FeedKind.NORMAL);
      CouchReply probe = client.exchange(request.body().isPresent() ? "POST" : "GET", request.path("now", true),
          request.body().orElse(""));
      if (probe.status() != 200) {
        throw new ChangesException("CouchDB at " + target.baseUrl() + " refused _changes with filter "
            + request.describeFilter() + ": " + probe.status() + " " + probe.reason() + "; give another -Dfilter");
      }
    }
    if (plan.listeners().containsKey(FeedKind.EVENTSOURCE)) {
      CouchReply probe = client.get("/" + plan.databaseNames().get(0) + "/_changes?feed=eventsource&since=now"
          + "&timeout=1");
      if (probe.status() != 200 || !probe.contentType().startsWith("text/event-stream")) {
        throw new ChangesException("the server at " + target.baseUrl() + " does not offer feed=eventsource: it answered "
            + probe.status() + " " + (probe.contentType().isEmpty() ? "without a Content-Type" : probe.contentType())
            + ", not text/event-stream (CouchDB 3.x does; pouchdb-server does not): follow another feed, e.g."
            + " -Dlisteners=continuous:N");
      }
    }
  }

  private static String updateSeq(CouchDbClient client, String database) {
    CouchReply info = client.get("/" + database);
    try {
      JsonNode seq = JSON.readTree(info.body()).path("update_seq");
      if (info.status() == 200 && (seq.isTextual() || seq.isNumber())) {
        return seq.asText();
      }
    } catch (IOException e) {
      // said below
    }
    throw new ChangesException("GET /" + database + " gave no update_seq (" + info.status() + " " + info.reason()
        + "): is " + "the server CouchDB? Or give -Dsince=now");
  }

  /**
   * @param kind a feed
   * @return the name of the report's entry of each write a listener of it was notified of, timed from the write's
   *     acknowledgement to its arrival
   */
  public static String notificationOf(FeedKind kind) {
    return "notification " + kind.value();
  }

  /** @return a catch-up reader's chain: its database's _changes from 0 to the end, page after page */
  public ChainBuilder catchUpReader() {
    return catchUp.read();
  }

  /**
   * @param node its node, from 0, with -Dvisibility=nodes (its scenario's protocol goes there); else 0
   * @return a writer's chain
   */
  public ChainBuilder writer(int node) {
    return writers.write(node);
  }

  /**
   * @param node a node, from 0
   * @return a reader's chain of -Dvisibility=nodes: each write acknowledged through another node, read through this
   *     one until it returns it
   */
  public ChainBuilder visibilityReader(int node) {
    return visibility.read(node);
  }

  /**
   * @param node a node, from 0
   * @return the same CouchDB through that node alone, for the protocol of its writers and readers
   */
  public CouchTarget throughNode(int node) {
    return target.node(target.nodes().urls().get(node));
  }

  /**
   * @param kind a feed of the plan
   * @return a listener of it: a virtual user following its database until it saw what it should
   */
  public ChangesFeed listener(FeedKind kind) {
    FeedTally tally = tallies.get(kind);
    Optional<String> login = target.credentials().map(Credentials::authorization);
    boolean https = plan.listenThrough().map(URI::toString).orElse(target.baseUrl()).startsWith("https:");
    FeedTarget feedTarget = new FeedTarget(login, https ? Optional.of(target.tls().sslContext()) : Optional.empty(),
        !target.tls().insecure(), CONNECT_TIMEOUT);
    // One request per database, made once: a _doc_ids filter's list is long, and the listeners many.
    List<FeedRequest> requests = IntStream.range(0, plan.databases()).mapToObj(database -> request(database, kind))
        .toList();
    List<String> nodes = plan.listenThrough().map(proxy -> List.of(proxy.toString())).orElse(target.nodes().urls());
    return ChangesFeed.follow(session -> {
      // Numbered within its feed: each feed's listeners spread evenly over the databases and the nodes.
      int number = listenerNumbers.get(kind).getAndIncrement();
      int database = number % plan.databases();
      return new Listener(plan, ledger, tally, database, URI.create(nodes.get(number % nodes.size())),
          requests.get(database), since.get(database));
    }).target(feedTarget).connections(tally.connections());
  }

  private FeedRequest request(int database, FeedKind kind) {
    return new FeedRequest(plan.databaseNames().get(database), kind, plan.heartbeat(), plan.includeDocs(),
        plan.seqInterval(), plan.pollTimeout(), plan.pollInterval(),
        plan.filter() == ChangesPlan.Filter.SELECTOR ? Optional.of(ChangesPlan.SELECTOR) : Optional.empty(),
        plan.docIds(database));
  }

  /** @return each feed's notifications, timed from a write's acknowledgement, and its listeners' verdicts */
  @Override
  public Map<SeriesKind, List<String>> countedApart() {
    return Map.of(SeriesKind.NOTIFICATION, plan.listeners().keySet().stream().map(ChangesLoad::notificationOf).toList(),
        SeriesKind.VERDICT, plan.listeners().keySet().stream().map(ChangesFeed::deliveryOf).toList());
  }

  /** @return the write requests (or catch-up pages) ended so far and those that failed, for the progress line */
  @Override
  public List<Progress.Source> progress() {
    return List.of(plan.catchesUp() ? Progress.Source.of("pages", catchUp::counts) : Progress.Source.of("writes",
        writers::counts));
  }

  /** @return the run's figures, after the load */
  @Override
  public ChangesFigures figures() {
    long docCount = 0;
    CouchDbClient client = new CouchDbClient(target);
    boolean oneDatabase = plan.catchesUp() || plan.visibility();
    for (String database : oneDatabase ? plan.databaseNames().subList(0, 1) : plan.databaseNames()) {
      try {
        docCount += client.docCount(database);
      } catch (RuntimeException e) {
        docCount = -1;
        break;
      }
    }
    return plan.catchesUp()
        ? new ChangesFigures(plan.describe(), null, List.of(), catchUp.figures(), null, docCount)
        : new ChangesFigures(plan.describe(), writers.figures(),
            tallies.values().stream().map(FeedTally::figures).toList(), null,
            plan.visibility() ? visibility.figures() : null, docCount);
  }

  @Override
  public String describe() {
    return plan.describe();
  }

  @Override
  public List<String> couchDatabases() {
    return plan.databaseNames();
  }

  @Override
  public Summary<ChangesFigures> summary() {
    return new ChangesSummary();
  }
}
