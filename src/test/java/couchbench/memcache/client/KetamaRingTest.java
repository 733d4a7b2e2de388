package couchbench.memcache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class KetamaRingTest {

  private static final InetSocketAddress A = InetSocketAddress.createUnresolved("10.0.1.1", 11211);
  private static final InetSocketAddress B = InetSocketAddress.createUnresolved("10.0.1.2", 11211);
  private static final InetSocketAddress C = InetSocketAddress.createUnresolved("10.0.1.3", 21201);
  private static final InetSocketAddress D = InetSocketAddress.createUnresolved("10.0.1.4", 11211);

  @Test
  void shouldNamePointsAsLibmemcachedDoes() {
    assertEquals("10.0.1.1-0", KetamaRing.pointName(A, 0), "the default port is left out");
    assertEquals("10.0.1.3:21201-39", KetamaRing.pointName(C, 39));
    assertEquals("cache-a:11212-7", KetamaRing.pointName(InetSocketAddress.createUnresolved("cache-a", 11212), 7));
  }

  @Test
  void shouldHashAKeyByTheFirstFourBytesOfItsMd5LittleEndian() {
    // md5("foo") = acbd18db 4cc2f85c edef654f ccc4a4d8: bytes ac bd 18 db read backwards are 0xdb18bdac.
    assertEquals(0xdb18bdacL, KetamaRing.keyHash("foo"));
    // md5("") = d41d8cd9 8f00b204 e9800998 ecf8427e
    assertEquals(0xd98c1dd4L, KetamaRing.keyHash(""));
  }

  @Test
  void shouldPlaceKnownKeysWhereLibmemcachedDoes() {
    // From libmemcached 1.1.4, memcached_generate_hash() with MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED on and the
    // servers added in this order; the same as walking the ring by hand (see referenceRing below).
    KetamaRing ring = new KetamaRing(List.of(A, B, C));
    Map<String, InetSocketAddress> expected = Map.ofEntries(
        Map.entry("foo", C), Map.entry("bar", C), Map.entry("baz", C), Map.entry("user:1", A),
        Map.entry("user:2", B), Map.entry("user:3", B), Map.entry("user:42", C), Map.entry("ключ", A),
        Map.entry("a", A), Map.entry("b", C), Map.entry("c", A));
    expected.forEach((key, server) -> assertEquals(server, ring.serverFor(key), key));
  }

  @Test
  void shouldAgreeWithAPlainTreeMapRingForManyKeys() {
    List<InetSocketAddress> servers = List.of(A, B, C, D);
    KetamaRing ring = new KetamaRing(servers);
    TreeMap<Long, InetSocketAddress> reference = referenceRing(servers);
    for (int i = 0; i < 10_000; i++) {
      String key = "key:" + i;
      Map.Entry<Long, InetSocketAddress> at = reference.ceilingEntry(KetamaRing.keyHash(key));
      assertEquals((at == null ? reference.firstEntry() : at).getValue(), ring.serverFor(key), key);
    }
  }

  @Test
  void shouldSpreadKeysRoughlyEvenlyOverThreeServers() {
    Map<InetSocketAddress, Integer> counts = counts(new KetamaRing(List.of(A, B, C)), 10_000);
    assertEquals(3, counts.size());
    counts.values().forEach(n -> assertTrue(n > 2500 && n < 4200, counts.toString()));
  }

  @Test
  void shouldAlwaysPutTheSameKeyOnTheSameServerWhateverTheServerOrder() {
    KetamaRing one = new KetamaRing(List.of(A, B, C));
    KetamaRing other = new KetamaRing(List.of(C, A, B));
    for (int i = 0; i < 2000; i++) {
      assertEquals(one.serverFor("k" + i), one.serverFor("k" + i));
      assertEquals(one.serverFor("k" + i), other.serverFor("k" + i));
    }
  }

  @Test
  void shouldMoveAboutAQuarterOfTheKeysAndOnlyToTheNewServerWhenAFourthIsAdded() {
    KetamaRing three = new KetamaRing(List.of(A, B, C));
    KetamaRing four = new KetamaRing(List.of(A, B, C, D));
    int moved = 0;
    for (int i = 0; i < 10_000; i++) {
      InetSocketAddress before = three.serverFor("key:" + i);
      InetSocketAddress after = four.serverFor("key:" + i);
      if (!before.equals(after)) {
        assertEquals(D, after, "a key only moves to the new server");
        moved++;
      }
    }
    assertTrue(moved > 1700 && moved < 3300, "moved " + moved);
  }

  @Test
  void shouldBypassTheRingWithOneServer() {
    KetamaRing ring = new KetamaRing(List.of(C));
    assertSame(C, ring.serverFor("anything"));
  }

  /** The algorithm written out plainly, as spymemcached does it: 40 md5s per server, 4 points each. */
  private static TreeMap<Long, InetSocketAddress> referenceRing(List<InetSocketAddress> servers) {
    TreeMap<Long, InetSocketAddress> ring = new TreeMap<>();
    for (InetSocketAddress server : servers) {
      String name = server.getPort() == 11211
          ? server.getHostString()
          : server.getHostString() + ":" + server.getPort();
      for (int i = 0; i < 40; i++) {
        byte[] d = md5(name + "-" + i);
        for (int h = 0; h < 4; h++) {
          long point = ((long) (d[3 + h * 4] & 0xFF) << 24) | ((long) (d[2 + h * 4] & 0xFF) << 16)
              | ((long) (d[1 + h * 4] & 0xFF) << 8) | (d[h * 4] & 0xFF);
          ring.put(point, server);
        }
      }
    }
    return ring;
  }

  private static Map<InetSocketAddress, Integer> counts(KetamaRing ring, int keys) {
    Map<InetSocketAddress, Integer> counts = new HashMap<>();
    for (int i = 0; i < keys; i++) {
      counts.merge(ring.serverFor("key:" + i), 1, Integer::sum);
    }
    return counts;
  }

  private static byte[] md5(String text) {
    try {
      return MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
