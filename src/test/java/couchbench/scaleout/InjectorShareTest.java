package couchbench.scaleout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import couchbench.memcache.codec.MemcacheKeys;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InjectorShareTest {

  @Test
  void shouldSplitACountSoThatTheSharesAddUp() {
    long sum = 0;
    for (int i = 0; i < 3; i++) {
      sum += InjectorShare.parse("injector", i + "/3").share(27001);
    }

    assertEquals(27001, sum);
    assertEquals(9001, InjectorShare.parse("injector", "0/3").share(27001));
    assertEquals(9000, InjectorShare.parse("injector", " 2 / 3 ").share(27001));
    assertEquals(50.0, InjectorShare.parse("injector", "2/3").rate(150));
    assertEquals("0/1", InjectorShare.ALONE.toString());
  }

  @Test
  void shouldGiveEachInjectorItsOwnKeysFilesAndDatabasesAndLeaveAOneInjectorRunAsItWas() {
    InjectorShare first = InjectorShare.parse("injector", "0/2");
    InjectorShare second = InjectorShare.parse("injector", "1/2");
    Path keys = Path.of("data", "keys", "memcache.csv");

    assertEquals(keys, InjectorShare.ALONE.ownFile(keys));
    assertEquals("", InjectorShare.ALONE.keyPrefix());
    assertEquals("", InjectorShare.ALONE.databaseSuffix());
    assertEquals(Path.of("data", "keys", "memcache.injector0of2.csv"), first.ownFile(keys));
    assertNotEquals(first.ownFile(keys), second.ownFile(keys));
    assertEquals("i1-", second.keyPrefix());
    String key = second.keyPrefix() + "0123456789abcdef0123456789abcdef";
    assertEquals(Optional.empty(), MemcacheKeys.problem(key), "a valid memcache key");
    assertEquals("_injector1of2", second.databaseSuffix());
  }
}
