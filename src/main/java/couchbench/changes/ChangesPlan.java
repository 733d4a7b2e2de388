package couchbench.changes;

import couchbench.feed.FeedKind;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A Changes run's parameters: writers writing documents at a rate into databases, while listeners of each feed follow
 * the databases' _changes; then a wait until every listener saw what it should.
 *
 * @param writers virtual users writing, each its documents one request after the other
 * @param listeners listeners per feed, in the order given
 * @param databases databases written and followed: a writer's requests go to each in turn, the i-th listener of
 *     each feed follows database i mod databases
 * @param rate documents per second over all writers, each request at its intended time
 * @param documents documents per writer
 * @param batch documents per request: 1 is a PUT each, more a _bulk_docs
 * @param heartbeat the feeds' heartbeat
 * @param includeDocs whether rows carry their documents
 * @param seqInterval the feeds' seq_interval (0 or 1: every row has its seq)
 * @param filter which documents the listeners follow
 * @param since where the feeds start: "now", or empty for the databases' update_seq read before the load
 * @param pollInterval the normal feed's pause between polls
 * @param pollTimeout how long a longpoll waits before it answers empty
 * @param quiet how long listeners may take, after the last write, to see every write they should
 * @param prefix the databases' names: prefix_0, prefix_1, ...
 * @param listenThrough where the listeners connect instead of CouchDB's nodes: a proxy or load balancer in front of
 *     it, as clients often reach it; empty for the nodes
 * @param catchup with more than 0, a catch-up instead of writers and listeners: documents written first, then read
 *     from 0 in pages by the readers
 * @param pageSize the catch-up's pages, in rows (limit)
 * @param readers the catch-up's readers, each reading the whole feed at once with the others; with -Dvisibility, the
 *     readers through each node
 * @param visibility whether the run measures the lag across a cluster's nodes (-Dvisibility=nodes) rather than
 *     listeners
 */
public record ChangesPlan(int writers, Map<FeedKind, Integer> listeners, int databases, double rate, int documents,
    int batch, Duration heartbeat, boolean includeDocs, int seqInterval, Filter filter, Optional<String> since,
    Duration pollInterval, Duration pollTimeout, Duration quiet, String prefix, Optional<URI> listenThrough,
    int catchup, int pageSize, int readers, boolean visibility) {

  /** Which documents a listener follows; each document carries "kind": "even" or "odd". */
  public enum Filter {
    /** Every document of its database. */
    NONE,
    /** filter=_selector with {"kind": "even"}: every other document of each writer in each database. */
    SELECTOR,
    /** filter=_doc_ids with every tenth document of each writer in each database. */
    DOC_IDS;

    /** @return its -Dfilter value */
    public String value() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The selector of {@link Filter#SELECTOR}. */
  public static final String SELECTOR = "{\"kind\":\"even\"}";

  /**
   * Reads the plan.
   *
   * @param settings writers, listeners, feed, databases, rate, docs, duration, batch, heartbeat, includeDocs,
   *     seqInterval, filter, since, pollInterval, pollTimeout, quiet, database
   * @return the plan
   * @throws ChangesException naming the setting and what to give, before any load
   */
  public static ChangesPlan from(Settings settings) {
    if (!InjectorShare.from(settings).alone()) {
      throw new ChangesException("-Dinjector: Changes runs on one injector (its listeners check every write its writers"
          + " acknowledged); leave -Dinjector out");
    }
    int writers = settings.intValue("writers", 4, 1);
    double rate = settings.doubleValue("rate", 200);
    if (!(rate > 0)) {
      throw new ChangesException("-Drate=" + rate + ": give the documents per second over all writers, above 0");
    }
    if (settings.value("docs").isPresent() && settings.value("duration").isPresent()) {
      throw new ChangesException("-Ddocs and -Dduration are both given: give one, the documents to write or the seconds"
          + " to write them for");
    }
    long total = settings.value("docs").isPresent() ? settings.intValue("docs", 0, 1)
        : Math.round(rate * settings.intValue("duration", 10, 1));
    int documents = (int) Math.max(1, (total + writers - 1) / writers);
    String since = settings.get("since", "");
    if (!since.isEmpty() && !since.equals("now")) {
      throw new ChangesException("-Dsince=" + since + ": give now (the feeds start as they open, writers wait for them)"
          + " or leave it out (they start at the databases' update_seq, read before the load)");
    }
    // A catch-up and the lag across nodes have no listeners.
    Map<FeedKind, Integer> listeners = settings.value("catchup").isPresent() || visibility(settings) ? Map.of()
        : listeners(settings);
    return new ChangesPlan(writers, listeners, settings.intValue("databases", 1, 1), rate, documents,
        settings.intValue("batch", 1, 1), Duration.ofMillis(settings.intValue("heartbeat", 5000, 100)),
        settings.booleanValue("includeDocs", false), settings.intValue("seqInterval", 0, 0),
        filter(settings.get("filter", "none")), since.isEmpty() ? Optional.empty() : Optional.of(since),
        Duration.ofMillis(settings.intValue("pollInterval", 1000, 10)),
        Duration.ofMillis(settings.intValue("pollTimeout", 60_000, 100)),
        Duration.ofSeconds(settings.intValue("quiet", 30, 1)), settings.get("database", "couchbench_changes"),
        settings.value("listenThrough").map(ChangesPlan::proxy),
        settings.value("catchup").isPresent() ? settings.intValue("catchup", 0, 1) : 0,
        settings.intValue("pageSize", 1000, 1), settings.intValue("readers", visibility(settings) ? 4 : 1, 1),
        visibility(settings));
  }

  private static boolean visibility(Settings settings) {
    String given = settings.get("visibility", "none");
    if (!given.equals("none") && !given.equals("nodes")) {
      throw new ChangesException("-Dvisibility=" + given + ": give nodes (a write through one node, read through the"
          + " others) or leave it out");
    }
    if (given.equals("nodes") && settings.value("catchup").isPresent()) {
      throw new ChangesException("-Dvisibility and -Dcatchup are both given: give one");
    }
    if (given.equals("nodes") && settings.intValue("databases", 1, 1) > 1) {
      throw new ChangesException("-Dvisibility=nodes writes one database: leave -Ddatabases out");
    }
    return given.equals("nodes");
  }

  private static URI proxy(String url) {
    try {
      URI proxy = new URI(url.trim().replaceAll("/+$", ""));
      if ((proxy.getScheme().equals("http") || proxy.getScheme().equals("https")) && proxy.getHost() != null
          && proxy.getRawUserInfo() == null) {
        return proxy;
      }
    } catch (URISyntaxException | NullPointerException e) {
      // said below
    }
    throw new ChangesException("-DlistenThrough=" + url + ": give the URL the listeners connect to in front of"
        + " CouchDB, http(s)://host:port, without a login (-Dcouchdb.user's is sent)");
  }

  // -Dlisteners=N of -Dfeed, or a mix: -Dlisteners=continuous:200,longpoll:50
  private static Map<FeedKind, Integer> listeners(Settings settings) {
    String given = settings.get("listeners", "100").trim();
    Map<FeedKind, Integer> listeners = new LinkedHashMap<>();
    try {
      if (!given.contains(":")) {
        listeners.put(FeedKind.of(settings.get("feed", "continuous")), settings.intValue("listeners", 100, 1));
        return listeners;
      }
      if (settings.value("feed").isPresent()) {
        throw new ChangesException("-Dfeed and a mix in -Dlisteners are both given: give -Dlisteners=N -Dfeed=KIND, or"
            + " -Dlisteners=continuous:200,longpoll:50 alone");
      }
      for (String part : given.split(",")) {
        String[] kindAndCount = part.split(":", 2);
        int count = Integer.parseInt(kindAndCount[1].trim());
        if (count < 1 || listeners.put(FeedKind.of(kindAndCount[0]), count) != null) {
          throw new NumberFormatException();
        }
      }
      return listeners;
    } catch (IllegalArgumentException e) {
      throw new ChangesException((e instanceof NumberFormatException ? "-Dlisteners=" + given
          + ": give a count, or feeds and counts above 0, each feed once, e.g. continuous:200,longpoll:50"
          : "-Dfeed/-Dlisteners: " + e.getMessage()));
    }
  }

  private static Filter filter(String value) {
    for (Filter filter : Filter.values()) {
      if (filter.value().equals(value.trim().toLowerCase(Locale.ROOT).replace("_", "").replace("docids", "doc_ids"))) {
        return filter;
      }
    }
    throw new ChangesException("-Dfilter=" + value + ": give none, selector (filter=_selector, {\"kind\":\"even\"}) or"
        + " doc_ids (filter=_doc_ids, every tenth document)");
  }

  /** @return the databases' names */
  public List<String> databaseNames() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < databases; i++) {
      names.add(prefix + "_" + i);
    }
    return names;
  }

  /** @return listeners of every feed */
  public int listenerCount() {
    return listeners.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** @return documents over all writers */
  public long totalDocuments() {
    return (long) writers * documents;
  }

  /**
   * @param writerSeq a writer's sequence number of a document
   * @return the database it goes to: its request's, each request to the next database
   */
  public int databaseOf(int writerSeq) {
    return (writerSeq / batch) % databases;
  }

  /**
   * @param writerSeq a writer's sequence number of a document
   * @return its place among the writer's documents in its database: 0, 1, 2, ... in each database
   */
  public int placeInDatabase(int writerSeq) {
    return writerSeq / (batch * databases) * batch + writerSeq % batch;
  }

  /**
   * @param writerSeq a writer's sequence number of a document
   * @return its "kind": every other document of each writer in each database is "even"
   */
  public boolean even(int writerSeq) {
    return placeInDatabase(writerSeq) % 2 == 0;
  }

  /**
   * @param writerSeq a writer's sequence number of a document
   * @return whether a listener of the run's filter should see it (in its database)
   */
  public boolean followed(int writerSeq) {
    return switch (filter) {
      case NONE -> true;
      case SELECTOR -> even(writerSeq);
      case DOC_IDS -> placeInDatabase(writerSeq) % 10 == 0;
    };
  }

  /**
   * @param writer a writer's number
   * @param writerSeq its sequence number of a document
   * @return the document's id
   */
  public static String id(int writer, int writerSeq) {
    return "w" + writer + "-" + writerSeq;
  }

  /**
   * @param database a database's number
   * @return the ids a _doc_ids listener of it follows; empty for another filter
   */
  public List<String> docIds(int database) {
    List<String> ids = new ArrayList<>();
    if (filter == Filter.DOC_IDS) {
      for (int writer = 0; writer < writers; writer++) {
        for (int seq = 0; seq < documents; seq++) {
          if (databaseOf(seq) == database && followed(seq)) {
            ids.add(id(writer, seq));
          }
        }
      }
    }
    return ids;
  }

  /**
   * @param node a node, from 0
   * @param nodes the nodes
   * @return the writers through that node with -Dvisibility=nodes: the writers spread evenly, the first nodes one more
   */
  public int writersThrough(int node, int nodes) {
    return writers / nodes + (node < writers % nodes ? 1 : 0);
  }

  /** @return whether the run is a catch-up (-Dcatchup) rather than writers and listeners */
  public boolean catchesUp() {
    return catchup > 0;
  }

  /** @return the load in words, for the console and the page */
  public String describe() {
    if (visibility) {
      return String.format(Locale.ROOT, "%d writers write %,d documents (%s) at %,.0f/s, spread over the nodes;"
          + " each acknowledged write is read with r=1 through every other node by %d readers a node until it"
          + " returns the write's revision, for up to %d s", writers, totalDocuments(), batch == 1 ? "a PUT each"
          : "_bulk_docs of " + batch, rate, readers, quiet.toSeconds());
    }
    if (catchesUp()) {
      return String.format(Locale.ROOT, "%,d documents written first, then %d reader%s read %s's _changes from 0 in"
              + " pages of %,d%s%s", catchup, readers, readers == 1 ? "" : "s", databaseNames().get(0), pageSize,
          includeDocs ? " with include_docs" : "", seqInterval > 1 ? ", seq_interval " + seqInterval : "");
    }
    return String.format(Locale.ROOT, "%d writers write %,d documents (%s) at %,.0f/s into %d database%s; %s follow"
            + " _changes%s (heartbeat %d ms%s%s%s, since %s); filter %s; then up to %d s for every listener to see"
            + " what it should", writers, totalDocuments(), batch == 1 ? "a PUT each" : "_bulk_docs of " + batch, rate,
        databases, databases == 1 ? "" : "s",
        listeners.entrySet().stream().map(kind -> String.format(Locale.ROOT, "%,d %s", kind.getValue(),
            kind.getKey().value()))
            .collect(Collectors.joining(", ")), listenThrough.map(url -> " through " + url).orElse(""),
        heartbeat.toMillis(), includeDocs ? ", include_docs" : "", seqInterval > 1 ? ", seq_interval "
            + seqInterval : "", listeners.containsKey(FeedKind.NORMAL) ? ", normal polled every "
            + pollInterval.toMillis() + " ms" : "", since.orElse("update_seq"), filter.value(), quiet.toSeconds());
  }
}
