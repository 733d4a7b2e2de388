package couchbench.memcache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MetaRequest;
import couchbench.memcache.internal.MemcacheCommand.Kind;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Building and resolving commands: the functions here ignore the session, so none is needed. */
class MemcacheCommandTest {

  @Test
  void shouldAskForTheKeysOfAMultiGetOncePerRequest() {
    AtomicInteger asked = new AtomicInteger();
    MemcacheCommand multiGet = MemcacheCommand.retrieve(Kind.GET, session -> {
      asked.incrementAndGet();
      return List.of("r:0", "r:1", "r:2");
    });

    MemcacheRequest request = multiGet.resolve(null);

    assertEquals(new MemcacheRequest.Retrieve(false, List.of("r:0", "r:1", "r:2")), request);
    assertEquals(1, asked.get());
  }

  @Test
  void shouldRefuseAMultiGetWhoseFunctionGivesNoKey() {
    MemcacheCommand none = MemcacheCommand.retrieve(Kind.GET, session -> List.of());

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> none.resolve(null));
    assertEquals("get needs at least one key, got none", e.getMessage());
  }

  @Test
  void shouldResolveWhatTheFactoriesAndWithersSay() {
    byte[] value = {'v'};
    assertEquals(new MemcacheRequest.Store(MemcacheRequest.StoreCommand.APPEND, "k", 5, 60, value, 0, true),
        MemcacheCommand.store(Kind.APPEND, session -> "k", session -> value)
            .withFlags(5).withExptime(60).withNoreply().resolve(null));
    assertEquals(new MemcacheRequest.Store(MemcacheRequest.StoreCommand.CAS, "k", 0, 0, value, 42, false),
        MemcacheCommand.cas(session -> "k", session -> value, session -> 42L).resolve(null));
    assertEquals(new MemcacheRequest.Retrieve(true, List.of("k")),
        MemcacheCommand.retrieve(Kind.GETS, session -> List.of("k")).resolve(null));
    assertEquals(new MemcacheRequest.Delete("k", true), MemcacheCommand.delete(session -> "k").withNoreply().resolve(null));
    assertEquals(new MemcacheRequest.Arithmetic(false, "k", 3, false),
        MemcacheCommand.arithmetic(Kind.DECR, session -> "k", session -> 3L).resolve(null));
    assertEquals(new MemcacheRequest.Touch("k", 100, false),
        MemcacheCommand.touch(session -> "k", session -> 100L).resolve(null));
    assertEquals(new MemcacheRequest.Stats(""), MemcacheCommand.stats().resolve(null));
  }

  @Test
  void shouldDrawTheExptimeOfEachRequestWhenGivenAFunction() {
    byte[] value = {'v'};
    AtomicInteger drawn = new AtomicInteger(59);
    MemcacheCommand set = MemcacheCommand.store(Kind.SET, session -> "k", session -> value)
        .withExptime(session -> (long) drawn.incrementAndGet());
    assertEquals(new MemcacheRequest.Store(MemcacheRequest.StoreCommand.SET, "k", 0, 60, value, 0, false),
        set.resolve(null));
    assertEquals(61, ((MemcacheRequest.Store) set.resolve(null)).exptime(), "drawn again for the next request");

    MemcacheCommand metaSet = MemcacheCommand.meta(Kind.META_SET, session -> "k", session -> value, null)
        .withExptime(session -> 300L);
    assertEquals("F0 T300", ((MetaRequest) metaSet.resolve(null)).flags(), "ms's T token, in place of T0");
  }

  @Test
  void shouldRefuseAKindOutsideTheFactorysFamily() {
    assertThrows(IllegalArgumentException.class, () -> MemcacheCommand.store(Kind.CAS, session -> "k", session -> null));
    assertThrows(IllegalArgumentException.class, () -> MemcacheCommand.store(Kind.GET, session -> "k", session -> null));
    assertThrows(IllegalArgumentException.class, () -> MemcacheCommand.retrieve(Kind.STATS, session -> List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> MemcacheCommand.arithmetic(Kind.TOUCH, session -> "k", session -> 1L));
  }
}
