package couchbench.startup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {

  private static final String SECRET = "s3cr3t-Pw";

  private static Settings settings(Map<String, String> properties) {
    return Settings.of(properties, Map.of());
  }

  @Test
  void shouldFallBackToDefaultsWhenUnsetOrBlank() {
    Settings settings = settings(Map.of("blank", " "));
    assertEquals("x", settings.get("missing", "x"));
    assertEquals("x", settings.get("blank", "x"));
    assertEquals(7, settings.intValue("blank", 7, 1));
    assertEquals(List.of(1, 2), settings.intList("missing", List.of(1, 2), 1));
    assertTrue(settings.booleanValue("missing", true));
  }

  @Test
  void shouldParseNumbersListsAndBooleans() {
    Settings settings = settings(Map.of("docs", " 42 ", "sizes", "1, 2,4", "flag", "YES", "off", "false"));
    assertEquals("42", settings.get("docs", "0").trim());
    assertEquals(42, settings.intValue("docs", 1, 1));
    assertEquals(List.of(1, 2, 4), settings.intList("sizes", List.of(), 1));
    assertTrue(settings.booleanValue("flag", false));
    assertFalse(settings.booleanValue("off", true));
  }

  @Test
  void shouldNameParameterValueAndExpectationWhenANumberIsBad() {
    assertEquals("-Ddocs=abc is not a whole number (expected >= 1)",
        assertThrows(SettingsException.class, () -> settings(Map.of("docs", "abc")).intValue("docs", 5, 1)).getMessage());
    assertEquals("-Ddocs=0 is too small (expected >= 1)",
        assertThrows(SettingsException.class, () -> settings(Map.of("docs", "0")).intValue("docs", 5, 1)).getMessage());
    assertEquals("-Dsizes=1,x,4 is not a list of whole numbers (expected each >= 1, e.g. 1,2,4)",
        assertThrows(SettingsException.class, () -> settings(Map.of("sizes", "1,x,4")).intList("sizes", List.of(), 1))
            .getMessage());
    assertThrows(SettingsException.class, () -> settings(Map.of("sizes", "1,,4")).intList("sizes", List.of(), 1));
    assertThrows(SettingsException.class, () -> settings(Map.of("sizes", "1,0")).intList("sizes", List.of(), 1));
    assertEquals("-Dflag=maybe is not true or false",
        assertThrows(SettingsException.class, () -> settings(Map.of("flag", "maybe")).booleanValue("flag", true))
            .getMessage());
  }

  @Test
  void shouldTakeOperationsOrADurationButNotBoth() {
    assertEquals(0, settings(Map.of("duration", "5")).operationsInsteadOfDuration(), "the duration's run");
    assertEquals(600, settings(Map.of("operations", "600")).operationsInsteadOfDuration());
    assertEquals("-Doperations and -Dduration are both given: give one, the operations to run or the seconds to run"
        + " them for", assertThrows(SettingsException.class, () -> settings(Map.of("operations", "10", "duration", "5"))
        .operationsInsteadOfDuration()).getMessage());
    assertThrows(SettingsException.class, () -> settings(Map.of("operations", "0")).operationsInsteadOfDuration());
  }

  @Test
  void shouldListEveryParameterReadWithTheValueItGotAndNoPassword() {
    Settings settings = settings(Map.of("users", "16", "batchSizes", "1,8", "couchdb.password", SECRET,
        "couchdb.url", "http://admin:" + SECRET + "@db1:5984", "unrelated", "x"));
    settings.intValue("users", 50, 1);
    settings.intValue("duration", 60, 1);
    settings.intList("batchSizes", List.of(1), 1);
    settings.booleanValue("setup", true);
    settings.get("database", "couchbench_siege");
    settings.value("couchdb.password");
    settings.value("couchdb.url");
    settings.get("some.password", "given");

    assertEquals(Map.of("users", "16", "duration", "60", "batchSizes", "1,8", "setup", "true",
        "database", "couchbench_siege", "some.password", "*****"), settings.parameters(),
        "defaults included; the login is not a parameter; anything named like a password masked");
  }
}
