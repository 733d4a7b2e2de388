package couchbench.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * One search, drawn: its class, the words or values it asks for, the request (or requests, page after page) that asks
 * it, and its exact answer from the {@link Corpus}: which documents match, in which order for a sort, how many of each
 * facet. Used by one virtual user at a time.
 */
final class SearchCall {

  /** What a check returns for a reply that is right. */
  static final String RIGHT = "right";

  /** The hits of a page, and the limit of most classes. */
  static final int PAGE = 25;

  /** The ranges of n the ranges class counts, each [min, max). */
  static final int[][] N_RANGES = {{0, 25_000}, {25_000, 50_000}, {50_000, 75_000}, {75_000, Corpus.NUMBERS}};

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SearchClass searchClass;
  private final Engine engine;
  private final Corpus corpus;
  private final String path;
  private final String body;
  private final BitSet expected;
  private final int limit;
  private final List<String> order;
  // The sorts' keys. Engines break ties their own way (Mango reading n's index from its end gives them by id
  // descending, Nouveau by id ascending): a hit tied with the one expected at its place is in order.
  private static final Comparator<Corpus.Doc> BY_N_DESCENDING = Comparator.comparingInt(doc -> -doc.n());
  private static final Comparator<Corpus.Doc> BY_TAG_THEN_N = Comparator.comparing((Corpus.Doc doc) -> doc.tag())
      .thenComparingInt(Corpus.Doc::n);
  private final Map<String, Integer> facets;

  private final Set<String> seen = new HashSet<>();
  private String bookmark = "";
  private boolean done;

  private SearchCall(SearchClass searchClass, Engine engine, Corpus corpus, String path, String body, BitSet expected,
      int limit, List<String> order, Map<String, Integer> facets) {
    this.searchClass = searchClass;
    this.engine = engine;
    this.corpus = corpus;
    this.path = path;
    this.body = body;
    this.expected = expected;
    this.limit = limit;
    this.order = order;
    this.facets = facets;
  }

  /**
   * Draws a search and works out its answer.
   *
   * @param searchClass what is asked
   * @param engine what answers it: Nouveau, or one the class is also asked of ({@link Engine#answers})
   * @param index the Nouveau index's path, e.g. /db/_design/search/_nouveau/docs; in a partitioned database (the
   *     corpus's) the search asks a partition drawn, through its own path, and its answer is the partition's alone
   * @param database the database, for the other engines
   * @param update false to ask with update=false (the index as it is, without the latest writes)
   * @param corpus the data
   * @param random the user's random numbers
   * @return the search, not asked yet
   */
  static SearchCall draw(SearchClass searchClass, Engine engine, String index, String database, boolean update,
      Corpus corpus, SplittableRandom random) {
    String partition = corpus.partitioned() ? Corpus.partition(random.nextInt(Corpus.PARTITIONS)) : "";
    BitSet inPartition = corpus.partitioned() ? corpus.inPartition(partition) : null;
    String word = titleWord(corpus, random, 1, Integer.MAX_VALUE);
    BitSet titled = corpus.inTitles(word);
    if (inPartition != null) {
      titled.and(inPartition); // before the sorts' orders and the facets' counts are taken from it
    }
    String query = "title:" + word;
    Comparison comparison = new Comparison(engine, database, update);
    String more = "";
    BitSet expected = titled;
    int limit = PAGE;
    List<String> order = null;
    Map<String, Integer> facets = null;
    switch (searchClass) {
      case TERM -> comparison.word(word, false);
      case BOOKMARK -> {
        // More than a page, at most 20: a walk is one search, asked page after page. In the order of n, which writes
        // leave alone: a relevance order moves as writes change the index's lengths and counts (BM25), and a bookmark
        // (the last hit's score) then skips or repeats hits.
        String walked = titleWord(corpus, random, PAGE + 1, PAGE * 20);
        query = "title:" + walked;
        expected = corpus.inTitles(walked);
        more = "&sort=" + encode("\"n\"");
      }
      case PHRASE -> {
        List<String> title = corpus.docs().get(random.nextInt(corpus.docs().size())).title();
        int at = random.nextInt(title.size() - 1);
        String first = title.get(at);
        String second = title.get(at + 1);
        query = "title:\"" + first + " " + second + "\"";
        expected = corpus.where(doc -> adjacent(doc.title(), first, second));
      }
      case PREFIX -> {
        String prefix = word.substring(0, 3);
        query = "title:" + prefix + "*";
        expected = corpus.inTitlesAny(any -> any.startsWith(prefix));
      }
      case WILDCARD -> {
        String pattern = word.charAt(0) + "?" + word.substring(2);
        query = "title:" + pattern;
        expected = corpus.inTitlesAny(any -> any.length() == word.length() && any.charAt(0) == word.charAt(0)
            && any.substring(2).equals(word.substring(2)));
      }
      case BOOLEAN -> {
        List<String> words = corpus.words();
        String must = words.get(random.nextInt(30));
        String either = words.get(random.nextInt(60));
        String or = words.get(random.nextInt(60));
        String not = words.get(random.nextInt(10));
        query = "title:" + must + " AND (title:" + either + " OR title:" + or + ") AND NOT title:" + not;
        expected = corpus.inTitles(must);
        BitSet any = corpus.inTitles(either);
        any.or(corpus.inTitles(or));
        expected.and(any);
        expected.andNot(corpus.inTitles(not));
      }
      case RANGE -> {
        int from = random.nextInt(Corpus.NUMBERS - 5_000);
        int to = from + 500 + random.nextInt(4_500);
        query = "n:[" + from + " TO " + to + "]";
        expected = corpus.where(doc -> doc.n() >= from && doc.n() <= to);
        comparison.range(from, to);
      }
      case SORT_NUMBER -> {
        more = "&sort=" + encode("\"-n\"");
        order = sorted(corpus, titled, BY_N_DESCENDING);
        comparison.word(word, true);
      }
      case SORT_STRING -> {
        more = "&sort=" + encode("[\"tag\",\"n\"]");
        order = sorted(corpus, titled, BY_TAG_THEN_N);
      }
      case COUNTS -> {
        // Nouveau counts the 10 most frequent values unless top_n says more: every tag, and one more.
        more = "&counts=" + encode("[\"tag\"]") + "&top_n=" + (Corpus.TAGS.size() + 1);
        limit = 1;
        facets = counted(corpus, titled, Corpus.Doc::tag);
        comparison.wordTags(word);
      }
      case RANGES -> {
        StringBuilder ranges = new StringBuilder("{\"n\":[");
        for (int[] range : N_RANGES) {
          ranges.append(range[0] == 0 ? "" : ",").append(String.format(Locale.ROOT, "{\"label\":\"%s\",\"min\":%d,"
              + "\"max\":%d,\"min_inclusive\":true,\"max_inclusive\":false}", label(range), range[0], range[1]));
        }
        more = "&ranges=" + encode(ranges.append("]}").toString());
        limit = 1;
        facets = counted(corpus, titled, doc -> {
          for (int[] range : N_RANGES) {
            if (doc.n() >= range[0] && doc.n() < range[1]) {
              return label(range);
            }
          }
          throw new IllegalStateException("n out of every range: " + doc.n());
        });
      }
      case DOCS -> {
        more = "&include_docs=true";
        limit = 10;
      }
      case TOP -> limit = 1;
      case MANY -> limit = 200;
      case STEMMED -> {
        String root = corpus.words().get(random.nextInt(corpus.words().size()));
        query = "body:" + root + "s";
        expected = corpus.inBodies(root);
      }
      case GERMAN -> {
        String root = corpus.words().get(random.nextInt(corpus.words().size()));
        query = "body_de:" + root + "e";
        expected = corpus.inBodies(root);
      }
      case FRENCH -> {
        String root = corpus.words().get(random.nextInt(corpus.words().size()));
        query = "body_fr:" + root + "x";
        expected = corpus.inBodies(root);
      }
      case KEYWORD -> {
        String tag = Corpus.TAGS.get(random.nextInt(Corpus.TAGS.size()));
        query = "tag:\"" + tag + "\"";
        expected = corpus.tagged(tag);
        comparison.tag(tag);
      }
      default -> throw new IllegalStateException(searchClass.toString());
    }
    if (inPartition != null) {
      expected.and(inPartition);
    }
    if (engine != Engine.NOUVEAU) {
      if (!engine.answers(searchClass)) {
        throw new IllegalArgumentException(engine.value() + " does not answer " + searchClass.value());
      }
      return new SearchCall(searchClass, engine, corpus, comparison.path(limit), comparison.body(limit), expected,
          limit, order, facets);
    }
    return new SearchCall(searchClass, engine, corpus, (partition.isEmpty() ? index : SearchIndex.path(database,
        partition)) + "?q=" + encode(query) + "&limit=" + limit + more
        + (update ? "" : "&update=false"), "", expected, limit, order, facets);
  }

  // A word of the titles held by between min and max documents.
  private static String titleWord(Corpus corpus, SplittableRandom random, int min, int max) {
    List<String> words = corpus.words().stream().filter(word -> {
      int holders = corpus.titleCount(word);
      return holders >= min && holders <= max;
    }).toList();
    if (words.isEmpty()) {
      return corpus.words().get(0);
    }
    return words.get(random.nextInt(words.size()));
  }

  private static boolean adjacent(List<String> words, String first, String second) {
    for (int at = 0; at + 1 < words.size(); at++) {
      if (words.get(at).equals(first) && words.get(at + 1).equals(second)) {
        return true;
      }
    }
    return false;
  }

  // The first PAGE ids in the sort's order; ties, as Nouveau breaks them, by id.
  private static List<String> sorted(Corpus corpus, BitSet matching, Comparator<Corpus.Doc> by) {
    return matching.stream().mapToObj(corpus.docs()::get).sorted(by.thenComparingInt(Corpus.Doc::number))
        .limit(PAGE).map(Corpus.Doc::id).toList();
  }

  private static Map<String, Integer> counted(Corpus corpus, BitSet matching, Function<Corpus.Doc, String> facet) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    matching.stream().forEach(number -> counts.merge(facet.apply(corpus.docs().get(number)), 1, Integer::sum));
    return counts;
  }

  private static String label(int[] range) {
    return range[0] + "-" + range[1];
  }

  private Comparator<Corpus.Doc> sortKey() {
    return searchClass == SearchClass.SORT_STRING ? BY_TAG_THEN_N : BY_N_DESCENDING;
  }

  static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /** @return its request name ({@link #requestName}) */
  String name() {
    return requestName(searchClass, engine);
  }

  /**
   * @param searchClass what is asked
   * @param engine what answers it
   * @return the class's name for Nouveau, e.g. "term"; with the engine's for another, e.g. "term / mango"
   */
  static String requestName(SearchClass searchClass, Engine engine) {
    return engine == Engine.NOUVEAU ? searchClass.value() : searchClass.value() + " / " + engine.value();
  }

  /** @return whether it is a POST of Mango's _find ({@link #body}), else a GET */
  boolean post() {
    return engine.mango();
  }

  /** @return the body of a Mango request; "" for a GET */
  String body() {
    return body;
  }

  /** @return the path of its next request, with the bookmark of the last page for a walk */
  String path() {
    return bookmark.isEmpty() ? path : path + "&bookmark=" + encode(bookmark);
  }

  /** @return how many documents match */
  int matches() {
    return expected.cardinality();
  }

  /** @return whether its last request is answered (or failed) */
  boolean done() {
    return done;
  }

  /** Gives up after a failed request: the user goes on with its next search. */
  void abandon() {
    done = true;
  }

  /**
   * Checks a reply against the answer: the hits (each one matching, as many as the limit and the matches allow), the
   * total, and the class's own: a sort's order, the facets' counts, the documents, a page's place in a walk.
   *
   * @param body the reply's body
   * @return {@link #RIGHT}, or what is wrong; {@link #done} is true after the last page
   */
  String check(byte[] body) {
    done = true;
    try {
      return checked(body);
    } catch (RuntimeException e) {
      // A reply of a shape no check foresaw: named, not lost in Gatling's "failed".
      return "a reply the check could not read (" + e + "): " + new String(body, 0, Math.min(body.length, 200),
          StandardCharsets.UTF_8);
    }
  }

  private String checked(byte[] body) {
    JsonNode reply;
    try {
      reply = JSON.readTree(body);
    } catch (IOException e) {
      return "not JSON: " + e.getMessage();
    }
    if (reply == null || !reply.isObject()) {
      return "not a search reply";
    }
    if (reply.has("error")) {
      return refusal(reply);
    }
    if (engine == Engine.VIEW && facets != null) {
      return groupCounts(reply.path("rows"));
    }
    // Nouveau's hits, Mango's docs, a view's rows: each holds the id of a document that matches.
    String list = engine == Engine.NOUVEAU ? "hits" : engine.mango() ? "docs" : "rows";
    String idField = engine.mango() ? "_id" : "id";
    JsonNode hits = reply.path(list);
    if (!hits.isArray()) {
      return "no " + list + " array in the reply";
    }
    int matches = expected.cardinality();
    int left = searchClass == SearchClass.BOOKMARK ? matches - seen.size() : matches;
    if (hits.size() != Math.min(limit, Math.max(0, left))) {
      return String.format(Locale.ROOT, "%d hits, %d expected (%d match, limit %d%s)", hits.size(),
          Math.min(limit, left), matches, limit, searchClass == SearchClass.BOOKMARK ? ", " + seen.size()
              + " seen on earlier pages" : "");
    }
    String total = engine == Engine.NOUVEAU ? total(reply, hits.size(), matches) : null;
    if (total != null) {
      return total;
    }
    for (int at = 0; at < hits.size(); at++) {
      JsonNode hit = hits.get(at);
      String id = hit.path(idField).asText();
      int number = corpus.number(id);
      if (number < 0 || !expected.get(number)) {
        return "a hit that does not match: " + id;
      }
      if (!seen.add(id)) {
        return "a hit given twice: " + id;
      }
      if (order != null && !order.get(at).equals(id) && sortKey().compare(corpus.docs().get(number),
          corpus.docs().get(corpus.number(order.get(at)))) != 0) {
        return "hit " + (at + 1) + " is " + id + ", " + order.get(at) + " expected in the sort's order";
      }
      if (searchClass == SearchClass.DOCS && !wholeDoc(hit.path("doc"), corpus.docs().get(number))) {
        return "the document of " + id + " differs from the one stored: " + hit.path("doc");
      }
    }
    if (facets != null) {
      String facet = searchClass == SearchClass.COUNTS ? "tag" : "n";
      JsonNode counts = reply.path(searchClass == SearchClass.COUNTS ? "counts" : "ranges").path(facet);
      Map<String, Integer> given = new LinkedHashMap<>();
      counts.properties().forEach(count -> {
        if (count.getValue().asInt() != 0) {
          given.put(count.getKey(), count.getValue().asInt());
        }
      });
      String counted = facetCounts(facet, given);
      if (!counted.equals(RIGHT)) {
        return counted;
      }
    }
    if (searchClass == SearchClass.BOOKMARK && seen.size() < matches) {
      String next = reply.path("bookmark").asText("");
      if (next.isEmpty() || next.equals(bookmark)) {
        return "a full page without a new bookmark";
      }
      bookmark = next;
      done = false;
    }
    return RIGHT;
  }

  // A view's _count grouped by [word, tag]: each row the count of a tag among the word's documents (none for a tag
  // none of them has).
  private String groupCounts(JsonNode rows) {
    if (!rows.isArray()) {
      return "no rows array in the reply";
    }
    Map<String, Integer> given = new LinkedHashMap<>();
    rows.forEach(row -> given.put(row.path("key").path(1).asText(), row.path("value").asInt()));
    return facetCounts("tag", given);
  }

  private String facetCounts(String facet, Map<String, Integer> given) {
    return given.equals(facets) ? RIGHT : "the " + facet + " facet counts " + given + ", " + facets + " expected";
  }

  /**
   * @param reply CouchDB's error reply
   * @return "refused: " its error and reason, the reason on one line and cut at 160 characters (CouchDB's can be an
   *     Erlang stack, as when its Nouveau server answers 503 while stopping)
   */
  static String refusal(JsonNode reply) {
    String reason = reply.path("reason").asText().replaceAll("\\s+", " ");
    return "refused: " + reply.path("error").asText() + ": " + (reason.length() > 160 ? reason.substring(0, 160)
        + "..." : reason);
  }

  // total_hits is exact when the reply says EQUAL_TO; otherwise a lower bound (Lucene stops counting past a point).
  private static String total(JsonNode reply, int hits, int matches) {
    long total = reply.path("total_hits").asLong(-1);
    String relation = reply.path("total_hits_relation").asText("EQUAL_TO");
    boolean right = relation.equals("EQUAL_TO") ? total == matches : total >= hits && total <= matches;
    return right ? null : "total_hits " + total + " (" + relation + "), " + matches + " match";
  }

  private static boolean wholeDoc(JsonNode stored, Corpus.Doc doc) {
    JsonNode generated = doc.json();
    for (String field : List.of("_id", "title", "body", "body_de", "body_fr", "tag", "n", "day")) {
      if (!stored.path(field).equals(generated.path(field))) {
        return false;
      }
    }
    return true;
  }
}
