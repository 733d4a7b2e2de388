package couchbench.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** SearchCall's checks, fed replies made here from the corpus: a right one passes, each kind of wrong one is named. */
class SearchCallTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Corpus CORPUS = Corpus.generate(2_000, 7, false);
  private static final String INDEX = "/db/_design/search/_nouveau/docs";

  @Test
  void shouldPassTheRightHitsAndTotalAndNameAHitThatDoesNotMatchOrAWrongTotal() {
    SearchCall call = draw(SearchClass.TERM, 1);
    List<String> ids = ids(CORPUS.inTitles(word(call)));
    int shown = Math.min(SearchCall.PAGE, ids.size());

    assertEquals(SearchCall.RIGHT, draw(SearchClass.TERM, 1).check(reply(ids.size(), "EQUAL_TO", ids.subList(0,
        shown))));
    assertEquals(SearchCall.RIGHT, draw(SearchClass.TERM, 1).check(reply(shown, "GREATER_THAN_OR_EQUAL_TO",
        ids.subList(0, shown))), "a lower bound where Lucene stopped counting");
    List<String> stranger = new ArrayList<>(ids.subList(0, shown));
    String outside = ids(complement(CORPUS.inTitles(word(call)))).get(0);
    stranger.set(0, outside);
    assertEquals("a hit that does not match: " + outside, draw(SearchClass.TERM, 1).check(reply(ids.size(),
        "EQUAL_TO", stranger)));
    assertTrue(draw(SearchClass.TERM, 1).check(reply(ids.size() + 1, "EQUAL_TO", ids.subList(0, shown)))
        .startsWith("total_hits " + (ids.size() + 1) + " (EQUAL_TO), " + ids.size() + " match"));
    assertTrue(draw(SearchClass.TERM, 1).check(reply(ids.size(), "EQUAL_TO", ids.subList(0, shown - 1)))
        .startsWith((shown - 1) + " hits, " + shown + " expected"));
    assertEquals("refused: bad_request: limit must be greater than 0", call.check(
        "{\"error\":\"bad_request\",\"reason\":\"limit must be greater than 0\"}".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void shouldHoldAStringSortToByteOrderThenTheNumberThenTheId() {
    SearchCall call = draw(SearchClass.SORT_STRING, 3);
    BitSet matching = CORPUS.inTitles(word(call));
    List<String> sorted = matching.stream().mapToObj(CORPUS.docs()::get)
        .sorted(Comparator.comparing(Corpus.Doc::tag).thenComparingInt(Corpus.Doc::n)
            .thenComparingInt(Corpus.Doc::number))
        .limit(SearchCall.PAGE).map(doc -> Corpus.id(doc.number())).toList();
    assertTrue(sorted.size() > 2, "a word of several titles");

    assertEquals(SearchCall.RIGHT, draw(SearchClass.SORT_STRING, 3).check(reply(matching.cardinality(), "EQUAL_TO",
        sorted)));
    List<String> swapped = new ArrayList<>(sorted);
    swapped.set(0, sorted.get(1));
    swapped.set(1, sorted.get(0));
    assertEquals("hit 1 is " + sorted.get(1) + ", " + sorted.get(0) + " expected in the sort's order",
        call.check(reply(matching.cardinality(), "EQUAL_TO", swapped)));
  }

  @Test
  void shouldWalkEveryPageByBookmarkAndNameAHitGivenTwice() {
    SearchCall call = draw(SearchClass.BOOKMARK, 5);
    List<String> ids = ids(CORPUS.inTitles(word(call)));
    assertTrue(ids.size() > SearchCall.PAGE, "more than a page: " + ids.size());

    assertEquals(SearchCall.RIGHT, call.check(page(ids.size(), ids.subList(0, SearchCall.PAGE), "b1")));
    assertFalse(call.done(), "a page of " + ids.size() + " hits");
    assertTrue(call.path().endsWith("&bookmark=b1"), call.path());
    List<String> again = new ArrayList<>(ids.subList(SearchCall.PAGE, Math.min(ids.size(), 2 * SearchCall.PAGE)));
    again.set(0, ids.get(0));
    assertEquals("a hit given twice: " + ids.get(0), call.check(page(ids.size(), again, "b2")));
    assertTrue(call.done());

    SearchCall walk = draw(SearchClass.BOOKMARK, 5);
    for (int first = 0; first < ids.size(); first += SearchCall.PAGE) {
      assertEquals(SearchCall.RIGHT, walk.check(page(ids.size(), ids.subList(first, Math.min(ids.size(),
          first + SearchCall.PAGE)), "b" + first)));
    }
    assertTrue(walk.done(), "every hit seen: the walk ends");
  }

  @Test
  void shouldCountEveryTagOfTheHitsAndNameACountThatDiffers() {
    SearchCall call = draw(SearchClass.COUNTS, 9);
    assertTrue(call.path().contains("&top_n=13"), "more than Nouveau's 10 values by default: " + call.path());
    BitSet matching = CORPUS.inTitles(word(call));
    ObjectNode counts = JSON.createObjectNode();
    matching.stream().forEach(number -> {
      String tag = CORPUS.docs().get(number).tag();
      counts.put(tag, counts.path(tag).asInt() + 1);
    });
    List<String> first = ids(matching).subList(0, 1);

    ObjectNode right = (ObjectNode) parse(reply(matching.cardinality(), "EQUAL_TO", first));
    right.putObject("counts").set("tag", counts.deepCopy());
    assertEquals(SearchCall.RIGHT, draw(SearchClass.COUNTS, 9).check(bytes(right)));
    String tag = counts.fieldNames().next();
    counts.put(tag, counts.path(tag).asInt() + 1);
    right.putObject("counts").set("tag", counts);
    assertTrue(call.check(bytes(right)).startsWith("the tag facet counts "), "a count off by one");
  }

  @Test
  void shouldCountAWordsTagsByAViewsGroupsAndNameACountThatDiffers() {
    String word = word(draw(SearchClass.COUNTS, 9));
    SearchCall view = SearchCall.draw(SearchClass.COUNTS, Engine.VIEW, INDEX, "db", true, CORPUS,
        new SplittableRandom(9));
    Map<String, Integer> counts = new TreeMap<>();
    CORPUS.inTitles(word).stream().forEach(number -> counts.merge(CORPUS.docs().get(number).tag(), 1, Integer::sum));

    assertEquals("counts / view", view.name());
    assertEquals("/db/_design/compare-word-tags/_view/by?startkey=" + SearchCall.encode("[\"" + word + "\"]")
        + "&endkey=" + SearchCall.encode("[\"" + word + "\",{}]") + "&group_level=2", view.path(),
        "every group asked: no limit");
    ObjectNode rows = JSON.createObjectNode();
    ArrayNode groups = rows.putArray("rows");
    counts.forEach((tag, count) -> groups.addObject().put("value", count).putArray("key").add(word).add(tag));
    assertEquals(SearchCall.RIGHT, view.check(bytes(rows)));
    ((ObjectNode) groups.get(0)).put("value", groups.get(0).path("value").asInt() + 1);
    assertTrue(SearchCall.draw(SearchClass.COUNTS, Engine.VIEW, INDEX, "db", true, CORPUS, new SplittableRandom(9))
        .check(bytes(rows)).startsWith("the tag facet counts "), "a count off by one");
    groups.remove(0);
    assertTrue(SearchCall.draw(SearchClass.COUNTS, Engine.VIEW, INDEX, "db", true, CORPUS, new SplittableRandom(9))
        .check(bytes(rows)).startsWith("the tag facet counts "), "a tag left out");
    assertThrows(IllegalArgumentException.class, () -> SearchCall.draw(SearchClass.COUNTS, Engine.MANGO, INDEX, "db",
        true, CORPUS, new SplittableRandom(9)), "Mango cannot count");
  }

  @Test
  void shouldAskNouveausQuestionOfMangoAndAViewAndNameAWrongAnswerOfEither() {
    String word = word(draw(SearchClass.SORT_NUMBER, 11));
    SearchCall mango = SearchCall.draw(SearchClass.SORT_NUMBER, Engine.MANGO, INDEX, "db", true, CORPUS,
        new SplittableRandom(11));
    SearchCall view = SearchCall.draw(SearchClass.SORT_NUMBER, Engine.VIEW, INDEX, "db", true, CORPUS,
        new SplittableRandom(11));
    List<String> order = CORPUS.inTitles(word).stream().mapToObj(CORPUS.docs()::get)
        .sorted(Comparator.comparingInt((Corpus.Doc doc) -> -doc.n()).thenComparingInt(Corpus.Doc::number))
        .limit(SearchCall.PAGE).map(doc -> Corpus.id(doc.number())).toList();

    assertEquals("sort_number / mango", mango.name());
    assertTrue(mango.post() && mango.path().equals("/db/_find"), mango.path());
    JsonNode find = parse(mango.body().getBytes(StandardCharsets.UTF_8));
    assertEquals("(^| )" + word + "( |$)", find.path("selector").path("title").path("$regex").asText(), find.toString());
    assertEquals("[{\"n\":\"desc\"}]", find.path("sort").toString());
    assertEquals(SearchCall.PAGE, find.path("limit").asInt());
    assertFalse(view.post());
    assertEquals("/db/_design/compare-words/_view/by?startkey=" + SearchCall.encode("[\"" + word + "\"]")
        + "&endkey=" + SearchCall.encode("[\"" + word + "\",{}]") + "&limit=" + SearchCall.PAGE, view.path());
    assertEquals(SearchCall.RIGHT, mango.check(docs("docs", "_id", order)));
    assertEquals(SearchCall.RIGHT, view.check(docs("rows", "id", order)));
    List<String> swapped = new ArrayList<>(order);
    swapped.set(0, order.get(1));
    swapped.set(1, order.get(0));
    assertEquals("hit 1 is " + order.get(1) + ", " + order.get(0) + " expected in the sort's order",
        SearchCall.draw(SearchClass.SORT_NUMBER, Engine.VIEW, INDEX, "db", true, CORPUS, new SplittableRandom(11))
            .check(docs("rows", "id", swapped)));
    List<String> stranger = new ArrayList<>(order);
    String outside = ids(complement(CORPUS.inTitles(word))).get(0);
    stranger.set(3, outside);
    assertEquals("a hit that does not match: " + outside, SearchCall.draw(SearchClass.SORT_NUMBER, Engine.MANGO,
        INDEX, "db", true, CORPUS, new SplittableRandom(11)).check(docs("docs", "_id", stranger)));
  }

  // Mango's reply ({"docs": [{"_id": ...}]}) or a view's ({"rows": [{"id": ...}]}).
  // Mango reads n's index from its end, so documents tied on n come by id descending where Nouveau gives them by id:
  // a tie in either order is right, a hit out of n's order is not (the test above).
  @Test
  void shouldTakeDocumentsTiedOnTheSortKeyInEitherOrder() {
    for (long seed = 0; seed < 20_000; seed++) {
      String word = word(draw(SearchClass.SORT_NUMBER, seed));
      List<String> order = CORPUS.inTitles(word).stream().mapToObj(CORPUS.docs()::get)
          .sorted(Comparator.comparingInt((Corpus.Doc doc) -> -doc.n()).thenComparingInt(Corpus.Doc::number))
          .limit(SearchCall.PAGE).map(doc -> Corpus.id(doc.number())).toList();
      for (int at = 0; at + 1 < order.size(); at++) {
        if (n(order.get(at)) == n(order.get(at + 1))) {
          List<String> tiesReversed = new ArrayList<>(order);
          tiesReversed.set(at, order.get(at + 1));
          tiesReversed.set(at + 1, order.get(at));
          assertEquals(SearchCall.RIGHT, SearchCall.draw(SearchClass.SORT_NUMBER, Engine.MANGO, INDEX, "db", true,
              CORPUS, new SplittableRandom(seed)).check(docs("docs", "_id", tiesReversed)), "a tie on n " + order);
          return;
        }
      }
    }
    throw new AssertionError("no two documents tied on n within a page in 20,000 draws");
  }

  private static int n(String id) {
    return CORPUS.docs().get(CORPUS.number(id)).n();
  }
  @Test
  void shouldAskAGermanPluralOfTheGermanBodyAndExpectEveryDocumentWithEitherForm() {
    assertPluralOfItsBody(SearchClass.GERMAN, "body_de", "e");
  }

  @Test
  void shouldAskAFrenchPluralOfTheFrenchBodyAndExpectEveryDocumentWithEitherForm() {
    assertPluralOfItsBody(SearchClass.FRENCH, "body_fr", "x");
  }

  // A language's body holds the English body's words, each plural ("s" there) in its own ending: a search of a
  // plural expects every document with the word in either form.
  private static void assertPluralOfItsBody(SearchClass searchClass, String field, String ending) {
    SearchCall call = draw(searchClass, 4);
    String asked = URLDecoder.decode(call.path().replaceFirst(".*\\?q=", "").replaceFirst("&.*", ""),
        StandardCharsets.UTF_8);
    String root = asked.substring((field + ":").length(), asked.length() - 1);
    BitSet either = CORPUS.where(doc -> doc.body().contains(root) || doc.body().contains(root + "s"));

    assertTrue(asked.matches(field + ":[a-z]+" + ending), asked);
    assertEquals(either.cardinality(), call.matches(), "the documents holding " + root + " or its plural");
    assertTrue(CORPUS.docs().stream().anyMatch(doc -> doc.json().path(field).asText().contains(root + ending + " ")
        || doc.json().path(field).asText().endsWith(root + ending)), "the plural stored as such");
    assertTrue(CORPUS.docs().stream().noneMatch(doc -> doc.json().path(field).asText().contains("s")),
        "no plural in s: " + field);
  }

  @Test
  void shouldAskOnePartitionThroughItsPathAndNameAHitOfAnotherPartition() {
    Corpus partitioned = Corpus.generate(2_000, 7, true);
    SearchCall call = SearchCall.draw(SearchClass.TERM, Engine.NOUVEAU, INDEX, "db", true, partitioned,
        new SplittableRandom(1));
    String partition = call.path().replaceFirst("^/db/_partition/(p\\d)/_design/search/_nouveau/docs\\?q=.*", "$1");
    String word = URLDecoder.decode(call.path().replaceFirst(".*\\?q=", "").replaceFirst("&.*", ""),
        StandardCharsets.UTF_8).substring("title:".length());
    BitSet everywhere = partitioned.inTitles(word);
    BitSet inIt = partitioned.inTitles(word);
    inIt.and(partitioned.inPartition(partition));
    List<String> right = inIt.stream().mapToObj(number -> partitioned.docs().get(number).id()).limit(SearchCall.PAGE)
        .toList();
    everywhere.andNot(inIt);
    String elsewhere = partitioned.docs().get(everywhere.nextSetBit(0)).id();

    assertTrue(partition.matches("p\\d") && right.get(0).startsWith(partition + ":"), call.path() + " " + right);
    assertEquals(SearchCall.RIGHT, SearchCall.draw(SearchClass.TERM, Engine.NOUVEAU, INDEX, "db", true, partitioned,
        new SplittableRandom(1)).check(reply(inIt.cardinality(), "EQUAL_TO", right)));
    List<String> wrong = new ArrayList<>(right);
    wrong.set(0, elsewhere);
    assertEquals("a hit that does not match: " + elsewhere, SearchCall.draw(SearchClass.TERM, Engine.NOUVEAU, INDEX,
        "db", true, partitioned, new SplittableRandom(1)).check(reply(inIt.cardinality(), "EQUAL_TO", wrong)));
  }

  private static byte[] docs(String list, String idField, List<String> ids) {
    ObjectNode reply = JSON.createObjectNode();
    ArrayNode docs = reply.putArray(list);
    ids.forEach(id -> docs.addObject().put(idField, id));
    return bytes(reply);
  }

  private static SearchCall draw(SearchClass searchClass, long seed) {
    return SearchCall.draw(searchClass, Engine.NOUVEAU, INDEX, "db", true, CORPUS, new SplittableRandom(seed));
  }

  // The word of title:w, as the call asks it.
  private static String word(SearchCall call) {
    String query = URLDecoder.decode(call.path().replaceFirst(".*\\?q=", "").replaceFirst("&.*", ""),
        StandardCharsets.UTF_8);
    return query.substring("title:".length());
  }

  private static List<String> ids(BitSet documents) {
    return documents.stream().mapToObj(Corpus::id).toList();
  }

  private static BitSet complement(BitSet documents) {
    BitSet others = new BitSet();
    others.set(0, CORPUS.docs().size());
    others.andNot(documents);
    return others;
  }

  private static byte[] reply(int total, String relation, List<String> ids) {
    return bytes(((ObjectNode) parse(page(total, ids, ""))).put("total_hits_relation", relation));
  }

  private static byte[] page(int total, List<String> ids, String bookmark) {
    ObjectNode reply = JSON.createObjectNode().put("total_hits", total).put("total_hits_relation", "EQUAL_TO")
        .put("bookmark", bookmark);
    ArrayNode hits = reply.putArray("hits");
    ids.forEach(id -> hits.addObject().put("id", id).putObject("fields"));
    return bytes(reply);
  }

  private static JsonNode parse(byte[] body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] bytes(JsonNode node) {
    return node.toString().getBytes(StandardCharsets.UTF_8);
  }
}
