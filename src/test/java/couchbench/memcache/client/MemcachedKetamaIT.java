package couchbench.memcache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.targets.MemcachedServer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Two memcached servers: keys spread over both as the ring says, counted by memcached itself. */
class MemcachedKetamaIT {

  private static final int KEYS = 400;

  @Test
  void shouldSpreadKeysOverBothServersAndKeepEachKeyOnItsServer() {
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    try (MemcachedServer first = MemcachedServer.start(); MemcachedServer second = MemcachedServer.start()) {
      InetSocketAddress one = MemcachedClientIT.address(first);
      InetSocketAddress two = MemcachedClientIT.address(second);
      KetamaRing ring = new KetamaRing(List.of(one, two));
      try (MemcacheClient client = new MemcacheClient(MemcacheClientConfig.of(List.of(one, two)), group,
          NioSocketChannel::new)) {
        MemcacheConnections connections = client.connectionsFor(group.next());
        List<String> keys = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
          List<CompletableFuture<MemcacheReply>> sets = new ArrayList<>();
          for (int i = 0; i < KEYS; i++) {
            String key = "ketama:" + i;
            keys.add(key);
            sets.add(connections.send(new MemcacheRequest.Store(MemcacheRequest.StoreCommand.SET, key, 0, 0,
                ("v" + i + "/" + round).getBytes(StandardCharsets.UTF_8), 0, false)));
          }
          sets.forEach(Await::reply);
        }
        long onOne = items(connections, one);
        long onTwo = items(connections, two);
        assertEquals(KEYS, onOne + onTwo, "every key stored once: the second round went to the same servers");
        assertTrue(onOne > KEYS / 4 && onTwo > KEYS / 4, onOne + " and " + onTwo);
        long expectedOnOne = keys.stream().distinct().filter(key -> ring.serverFor(key).equals(one)).count();
        assertEquals(expectedOnOne, onOne, "memcached holds exactly the keys the ring puts there");

        for (int i = 0; i < KEYS; i += 37) {
          String key = "ketama:" + i;
          InetSocketAddress home = ring.serverFor(key);
          InetSocketAddress other = home.equals(one) ? two : one;
          MemcacheRequest get = new MemcacheRequest.Retrieve(false, List.of(key));
          assertEquals(1, values(Await.reply(connections.sendTo(home, get))).size(), key + " is on its server");
          assertEquals(0, values(Await.reply(connections.sendTo(other, get))).size(), key + " is not elsewhere");
        }

        List<String> asked = new ArrayList<>(List.of("ketama:none"));
        for (int i = KEYS - 1; i >= 0; i -= 3) {
          asked.add("ketama:" + i);
        }
        List<MemcacheReply.Value> found = values(Await.reply(
            connections.send(new MemcacheRequest.Retrieve(false, asked))));
        assertEquals(asked.subList(1, asked.size()), found.stream().map(MemcacheReply.Value::key).toList(),
            "a get over both servers answers in the order asked");
        assertEquals("v" + (KEYS - 1) + "/1", new String(found.get(0).data(), StandardCharsets.UTF_8));
      }
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  private static long items(MemcacheConnections connections, InetSocketAddress server) {
    MemcacheReply stats = Await.reply(connections.sendTo(server, new MemcacheRequest.Stats("")));
    return Long.parseLong(((MemcacheReply.StatsLines) stats).stats().get("curr_items"));
  }

  private static List<MemcacheReply.Value> values(MemcacheReply reply) {
    return ((MemcacheReply.Values) reply).values();
  }
}
