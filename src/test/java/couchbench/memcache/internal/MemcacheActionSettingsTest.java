package couchbench.memcache.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.memcache.MemcacheDsl;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class MemcacheActionSettingsTest {

  private final MemcacheActionSettings get = MemcacheActionSettings.of(session -> "get",
      MemcacheCommand.retrieve(MemcacheCommand.Kind.GET, session -> List.of("k")));

  @Test
  void shouldSendOneRequestAtATimeUnlessToldOtherwise() {
    assertEquals(1, get.depth());
    assertEquals(16, get.withDepth(16, Function.identity()).depth());
    assertEquals(16, get.withDepth(16, Function.identity()).withMissOk().withChecks(
        List.of(MemcacheDsl.valueCount().is(1))).depth(), "later options keep the depth");
  }

  @Test
  void shouldRefuseADepthOutOfRangeSayingTheRange() {
    for (int depth : new int[] {0, 1025}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> get.withDepth(depth, Function.identity()));
      assertTrue(e.getMessage().contains("1 to 1024"), e.getMessage());
    }
  }
}
