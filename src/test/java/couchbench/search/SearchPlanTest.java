package couchbench.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SearchPlanTest {

  @Test
  void shouldAskEveryClassByDefaultAndTakeAMixWithWrites() {
    assertEquals(SearchClass.values().length, plan(Map.of()).shares().size());
    SearchPlan mixed = plan(Map.of("mix", "bookmark:3, term:1, write:2"));

    assertEquals(List.of(SearchClass.BOOKMARK, SearchClass.TERM), List.copyOf(mixed.shares().keySet()));
    assertEquals(2, mixed.mix().writeShare());
    assertTrue(mixed.describe().endsWith("shares: bookmark:3,term:1,write:2"), mixed.describe());
  }

  @Test
  void shouldSearchForTheDurationUnlessRequestsAreGivenAndWriteForItEither() {
    SearchPlan timed = plan(Map.of("duration", "20", "rate", "5"));
    SearchPlan counted = plan(Map.of("duration", "20", "rate", "5", "requests", "40"));

    assertEquals(0, timed.requests(), "every user searches for -Dduration");
    assertEquals(40, counted.requests());
    assertEquals(Duration.ofSeconds(20), counted.duration(), "the freshness writers write for it");
    assertEquals(Duration.ofSeconds(30), plan(Map.of("rate", "5")).duration());
  }

  @Test
  void shouldAskEachClassAloneAlongTheStaircaseOrAtOneRateForTheDuration() {
    SearchPlan staircase = plan(Map.of("searches", "term,range", "targets", "20,40", "stepSeconds", "2",
        "settleSeconds", "1", "duration", "5", "rate", "10"));
    SearchPlan steady = plan(Map.of("searches", "keyword", "target", "30", "duration", "4"));

    assertEquals(List.of(20.0, 40.0), staircase.curve().orElseThrow().targets());
    assertEquals(List.of(SearchClass.TERM, SearchClass.RANGE), staircase.classes(), "each climbs alone, in order");
    assertEquals(0, staircase.requests(), "a staircase's length is its steps'");
    assertEquals(Duration.ofSeconds(5), staircase.duration(), "the freshness writers write for -Dduration");
    assertEquals(List.of(30.0), steady.curve().orElseThrow().targets());
    assertEquals(Duration.ofSeconds(4), steady.curve().orElseThrow().measure(), "one step of 30/s, all measured");
    assertEquals(Duration.ZERO, steady.curve().orElseThrow().settle());
    assertTrue(steady.describe().contains("each class alone in turn"), steady.describe());
    assertTrue(plan(Map.of()).curve().isEmpty(), "the closed model without either");
  }

  @Test
  void shouldRefuseWhatDoesNotGoWithARateInOneLine() {
    assertMessage("-Drequests does not go with -Dtargets: each class climbs the staircase alone",
        Map.of("targets", "10,20", "requests", "5"));
    assertMessage("-Dtarget does not go with -Dtargets", Map.of("targets", "10,20", "target", "5"));
    assertMessage("-Dtarget=0 is not a rate above 0: give the searches a second", Map.of("target", "0"));
    assertMessage("-Drequests does not go with -Dtarget", Map.of("target", "5", "requests", "5"));
    assertMessage("-Dmix=term:3,write:1: at a rate (-Dtarget, -Dtargets) each class is asked alone",
        Map.of("target", "5", "mix", "term:3,write:1"));
    SettingsException staircase = assertThrows(SettingsException.class, () -> plan(Map.of("targets", "10,x")));
    assertTrue(staircase.getMessage().startsWith("-Dtargets=10,x: 'x' is not a rate above 0"), "CurvePlan's own");
  }

  @Test
  void shouldAskEachQuestionOfEveryEngineThatAnswersItAndRefuseOneNoneAnswers() {
    SearchPlan compared = plan(Map.of("engines", "nouveau,mango,view,mango_nouveau"));

    assertEquals(List.of(SearchClass.TERM, SearchClass.RANGE, SearchClass.SORT_NUMBER, SearchClass.COUNTS,
        SearchClass.KEYWORD), compared.classes(), "by default, the classes another engine answers");
    assertEquals(List.of("term", "term / mango", "term / view", "range", "range / mango", "range / view",
        "range / mango_nouveau", "sort_number", "sort_number / mango", "sort_number / view", "counts",
        "counts / view", "keyword", "keyword / mango", "keyword / view"),
        compared.questions().stream().map(SearchPlan.Question::name).toList());
    assertEquals(List.of("range / view"), plan(Map.of("engines", "view", "searches", "range", "targets", "5"))
        .questions().stream().map(SearchPlan.Question::name).toList(), "a staircase of its own");
    assertEquals(List.of(Engine.NOUVEAU), plan(Map.of()).engines());
    assertMessage("-Dengines=mango,view: none of them answers phrase (title:\"w1 w2\" (a phrase)); they answer term,"
        + " range, sort_number, counts, keyword", Map.of("engines", "mango,view", "searches", "term,phrase"));
    assertMessage("-Dengines=nouveau,solr: no engine solr; there are nouveau, mango, view, mango_nouveau",
        Map.of("engines", "nouveau,solr"));
  }

  @Test
  void shouldRefuseWhatCannotRunInOneLineNamingTheSetting() {
    assertMessage("-Dsearches=term,fuzzy: no search class fuzzy; there are term, phrase,",
        Map.of("searches", "term,fuzzy"));
    assertMessage("-Dmix=write:1: give at least one search class beside the writes, e.g. term:9,write:1",
        Map.of("mix", "write:1"));
    assertMessage("-Dinjector: Search runs on one injector", Map.of("injector", "1/2"));
    assertMessage("-Drate=-1: give the freshness writers' documents a second", Map.of("rate", "-1"));
    assertMessage("-Dpartitioned=true does not go with -Dengines=nouveau,view: the other engines' indexes are asked"
        + " of the whole database", Map.of("partitioned", "true", "engines", "nouveau,view"));
    assertMessage("-DbuildRate=-5: give the documents a second written while the index builds",
        Map.of("buildRate", "-5"));
  }

  @Test
  void shouldRebuildAndWriteDuringTheBuildsOnlyWhenAsked() {
    SearchPlan rebuilt = plan(Map.of("rebuild", "true", "buildRate", "20"));

    assertTrue(rebuilt.rebuild() && rebuilt.buildRate() == 20, rebuilt.toString());
    assertTrue(rebuilt.describe().contains("; 20.0 documents a second written while the index builds; the index"
        + " function changed after the first build and the index rebuilt"), rebuilt.describe());
    assertTrue(!plan(Map.of()).rebuild() && plan(Map.of()).buildRate() == 0, "neither by default");
  }

  private static void assertMessage(String start, Map<String, String> properties) {
    SearchException refused = assertThrows(SearchException.class, () -> plan(properties));
    assertTrue(refused.getMessage().startsWith(start), refused.getMessage());
  }

  private static SearchPlan plan(Map<String, String> properties) {
    return SearchPlan.from(Settings.of(properties, Map.of()));
  }
}
