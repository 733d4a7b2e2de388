package couchbench.memcache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemcacheClientConfigTest {

  private static final InetSocketAddress SERVER = new InetSocketAddress("127.0.0.1", 11211);

  @Test
  void shouldDefaultToOneConnectionPerUserAndFiveSecondTimeouts() {
    MemcacheClientConfig config = MemcacheClientConfig.of(List.of(SERVER));
    assertFalse(config.sharedPool());
    assertEquals(Duration.ofSeconds(5), config.connectTimeout());
    assertEquals(Duration.ofSeconds(5), config.requestTimeout());
    assertEquals(64 * 1024 * 1024, config.maxValueBytes());
    assertEquals(1, config.usersPerConnection());
    MemcacheClientConfig pooled = config.withSharedPool(4).withTimeouts(Duration.ofMillis(200), Duration.ofSeconds(1));
    assertTrue(pooled.sharedPool());
    assertEquals(4, pooled.poolSize());
    assertEquals(Duration.ofMillis(200), pooled.connectTimeout());
  }

  @Test
  void shouldRefuseBadSettingsAndCopyTheServerList() {
    assertThrows(IllegalArgumentException.class, () -> MemcacheClientConfig.of(List.of()));
    assertThrows(IllegalArgumentException.class, () -> MemcacheClientConfig.of(List.of(SERVER, SERVER)));
    MemcacheClientConfig config = MemcacheClientConfig.of(List.of(SERVER));
    assertThrows(IllegalArgumentException.class, () -> config.withTimeouts(Duration.ZERO, Duration.ofSeconds(1)));
    assertThrows(IllegalArgumentException.class, () -> config.withSharedPool(0));
    assertThrows(IllegalArgumentException.class, () -> config.withMaxValueBytes(-1));
    assertThrows(IllegalArgumentException.class, () -> config.withUsersPerConnection(0));
    List<InetSocketAddress> servers = new ArrayList<>(List.of(SERVER));
    MemcacheClientConfig copied = MemcacheClientConfig.of(servers);
    servers.clear();
    assertEquals(List.of(SERVER), copied.servers());
  }
}
