package couchbench.variants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VariantPlanTest {

  private static VariantPlan plan(String variants, String... more) {
    Map<String, String> properties = new HashMap<>(Map.of("variants", variants));
    for (int i = 0; i < more.length; i += 2) {
      properties.put(more[i], more[i + 1]);
    }
    return VariantPlan.from(Settings.of(properties, Map.of())).orElseThrow();
  }

  private static String refusal(String variants, String... more) {
    return assertThrows(SettingsException.class, () -> plan(variants, more)).getMessage();
  }

  @Test
  void shouldReadEachVariantsNameAndSettingsACommaInAUrlListStayingInItsValue() {
    VariantPlan plan = plan("main:couchdb.url=http://127.0.0.1:5984,http://127.0.0.1:5985;"
        + "branch:couchdb.url=http://127.0.0.1:6984,config.couchdb.max_dbs_open=5000", "rounds", "3");

    assertEquals(List.of("main", "branch"), plan.variants().stream().map(Variant::name).toList());
    assertEquals(Map.of("couchdb.url", "http://127.0.0.1:5984,http://127.0.0.1:5985"),
        plan.variants().get(0).settings());
    Variant branch = plan.variants().get(1);
    assertEquals(Map.of("couchdb.url", "http://127.0.0.1:6984"), branch.properties());
    assertEquals(Map.of(new ConfigKey("couchdb", "max_dbs_open"), "5000"), branch.config());
    assertEquals(3, plan.rounds().count());
    assertTrue(plan.judged());
  }

  @Test
  void shouldRunTheRoundsInABalancedOrderNeverAllOfOneVariantFirst() {
    VariantPlan plan = plan("a;b;c", "rounds", "4");

    assertEquals(List.of("a1", "b1", "c1", "c2", "b2", "a2", "a3", "b3", "c3", "c4", "b4", "a4"),
        plan.order().stream().map(slot -> slot.variant().name() + slot.round()).toList());
  }

  @Test
  void shouldTakeVariantsWithoutSettingsAsAnAaRunButRefuseTwoWithTheSameSettings() {
    assertEquals(2, plan("a;b:").variants().size());
    assertTrue(plan("a;b").variants().stream().allMatch(variant -> variant.settings().isEmpty()));

    String same = refusal("a:config.couchdb.max_dbs_open=500;b:config.couchdb.max_dbs_open=500");
    assertTrue(same.contains("variants a and b have the same settings"), same);
  }

  @Test
  void shouldRefuseWhatVariantsCannotCompareInOneLineNamingTheFix() {
    assertTrue(refusal("a:config.couchdb.js_engine=quickjs").contains("names 1 variant: give 2 to 8"));
    assertTrue(refusal("a;a").contains("two variants are named a"));
    assertTrue(refusal("a b:x=1;c").contains("does not start with a name"));
    assertTrue(refusal("a:docs=1000;b:docs=2000").contains("sets docs, which is not a server's"));
    assertTrue(refusal("a:config.max_dbs_open=1;b").contains("is not a CouchDB setting: give config.<section>.<key>"));
    assertTrue(refusal("a:config.admins.bob=secret;b").contains("is a secret, which couchbench does not vary"));
    assertTrue(refusal("a:memcache.servers;b").contains("is not name=value"));
    assertTrue(refusal("a:config.chttpd.port=5985;b").contains("is read as CouchDB starts"));
    assertTrue(refusal("a;b", "injector", "1/2").contains("cannot go with -Dinjector=1/2"));
    assertTrue(refusal("a;b", "targets", "auto").contains("cannot go with -Dtargets=auto: a staircase"));
    assertTrue(refusal("a;b", "baseline", "last").contains("judged against the first variant of the same run"));
  }

  @Test
  void shouldRunOneRoundWithoutAVerdictWhenRoundsAreNotGiven() {
    VariantPlan plan = plan("a;b");

    assertEquals(1, plan.rounds().count());
    assertEquals(false, plan.judged());
    assertEquals(List.of("a1", "b1"), plan.order().stream().map(slot -> slot.variant().name() + slot.round()).toList());
  }
}
