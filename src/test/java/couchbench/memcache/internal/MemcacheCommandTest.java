package couchbench.memcache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.internal.MemcacheCommand.Kind;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Resolving a command's keys: the functions here ignore the session, so none is needed. */
class MemcacheCommandTest {

  @Test
  void shouldAskForTheKeysOfAMultiGetOncePerRequest() {
    AtomicInteger asked = new AtomicInteger();
    MemcacheCommand multiGet = new MemcacheCommand(Kind.GET, session -> {
      asked.incrementAndGet();
      return List.of("r:0", "r:1", "r:2");
    }, null, null, 0, 0, false);

    MemcacheRequest request = multiGet.resolve(null);

    assertEquals(new MemcacheRequest.Retrieve(false, List.of("r:0", "r:1", "r:2")), request);
    assertEquals(1, asked.get());
  }

  @Test
  void shouldRefuseAMultiGetWhoseFunctionGivesNoKey() {
    MemcacheCommand none = new MemcacheCommand(Kind.GET, session -> List.of(), null, null, 0, 0, false);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> none.resolve(null));
    assertEquals("get needs at least one key, got none", e.getMessage());
  }
}
