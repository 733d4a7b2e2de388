package couchbench.cacheaside;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class HotKeyRefillsTest {

  private final HotKeyRefills refills = new HotKeyRefills(List.of("hot000", "hot001"));

  @Test
  void shouldCountEveryUserThatMissedOneExpiryInOneRefill() {
    refills.readCouchDb("hot000", 10);
    refills.readCouchDb("hot000", 11);
    refills.readCouchDb("hot000", 12);
    refills.cached("hot000", 10, 50);
    refills.cached("hot000", 11, 51); // the losers' sets land too: no refill of their own
    refills.cached("hot000", 12, 52);

    assertEquals(List.of(new CacheAsideFigures.HotKey("hot000", 1, 3, 3, 0), new CacheAsideFigures.HotKey("hot001", 0, 0,
        0, 0)), refills.counts());
  }

  @Test
  void shouldOpenANewRefillForAReadWhoseGetBeganAfterTheSet() {
    refills.readCouchDb("hot000", 10);
    refills.cached("hot000", 10, 50);
    refills.readCouchDb("hot000", 2_000); // the next expiry
    refills.cached("hot000", 2_000, 2_040);
    refills.readCouchDb("hot000", 4_000);

    assertEquals(new CacheAsideFigures.HotKey("hot000", 3, 3, 1, 0), refills.counts().get(0), "one read per expiry");
  }

  @Test
  void shouldGiveAReadWhoseMissWasKnownAfterTheSetToTheRefillItsGetBeganIn() {
    refills.readCouchDb("hot000", 10);
    refills.cached("hot000", 10, 50);
    refills.readCouchDb("hot000", 45); // its get began before the set landed: the same expiry

    assertEquals(new CacheAsideFigures.HotKey("hot000", 1, 2, 2, 0), refills.counts().get(0));
  }

  @Test
  void shouldGiveALateReadToTheClosedRefillEvenWhenTheNextIsOpen() {
    refills.readCouchDb("hot000", 10);
    refills.cached("hot000", 10, 50);
    refills.readCouchDb("hot000", 2_000);
    refills.readCouchDb("hot000", 2_001);
    refills.cached("hot000", 2_000, 2_040);
    refills.readCouchDb("hot000", 2_030); // its get began before the second set

    assertEquals(new CacheAsideFigures.HotKey("hot000", 2, 4, 3, 0), refills.counts().get(0));
  }

  @Test
  void shouldLeaveTheOpenRefillOpenWhenALateSetterOfTheRefillBeforeStores() {
    refills.readCouchDb("hot000", 10);
    refills.readCouchDb("hot000", 12);
    refills.cached("hot000", 10, 50);
    refills.readCouchDb("hot000", 2_000); // the next expiry's first read
    refills.cached("hot000", 12, 2_010); // the first refill's slow loser stores now
    refills.readCouchDb("hot000", 2_020); // still the second refill: its set has not landed

    assertEquals(new CacheAsideFigures.HotKey("hot000", 2, 4, 2, 0), refills.counts().get(0));
  }

  @Test
  void shouldKeepEachKeysRefillsApart() {
    refills.readCouchDb("hot000", 10);
    refills.readCouchDb("hot001", 11);
    refills.cached("hot001", 11, 30);
    refills.readCouchDb("hot000", 40);

    assertEquals(List.of(new CacheAsideFigures.HotKey("hot000", 1, 2, 2, 0), new CacheAsideFigures.HotKey("hot001", 1, 1,
        1, 0)), refills.counts());
  }

  @Test
  void shouldCountTheRefillsBegunByARecacheWin() {
    refills.readCouchDb("hot000", 10); // the first fill: the key missing
    refills.cached("hot000", 10, 50);
    refills.readCouchDb("hot000", 1_000); // won with the value still cached, its TTL below R
    refills.recached("hot000");
    refills.cached("hot000", 1_000, 1_040);

    assertEquals(new CacheAsideFigures.HotKey("hot000", 2, 2, 1, 1), refills.counts().get(0));
  }
}
