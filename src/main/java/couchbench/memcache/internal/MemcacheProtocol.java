package couchbench.memcache.internal;

import couchbench.memcache.MemcacheTimings;
import couchbench.memcache.client.MemcacheClient;
import couchbench.memcache.client.MemcacheClientConfig;
import couchbench.memcache.client.ProtocolErrors;
import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
import io.gatling.netty.util.Transports;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * The memcache protocol as Gatling's engine sees it: the client settings, and the key under which
 * Gatling finds the components (one client per distinct client configuration and tally per run, closed when
 * the run ends).
 *
 * @param config servers, timeouts and connection sharing
 * @param timings where each request's time in nanoseconds goes
 * @param tally where the client tallies its connections and the replies no request was waiting for; null: its own
 */
public record MemcacheProtocol(MemcacheClientConfig config, MemcacheTimings timings, ProtocolErrors tally)
    implements Protocol {

  /** How actions find their components in Gatling's registry. */
  public static final ProtocolKey<MemcacheProtocol, MemcacheComponents> KEY = new Key();

  private static final class Key implements ProtocolKey<MemcacheProtocol, MemcacheComponents> {

    @Override
    @SuppressWarnings("unchecked")
    public Class<Protocol> protocolClass() {
      return (Class<Protocol>) (Class<?>) MemcacheProtocol.class;
    }

    @Override
    public MemcacheProtocol defaultProtocolValue(GatlingConfiguration configuration) {
      throw new IllegalArgumentException(
          "memcache requests need the memcache protocol: add .protocols(memcache.servers(\"host:port\"))"
              + " to setUp(...)");
    }

    @Override
    public Function1<MemcacheProtocol, MemcacheComponents> newComponents(CoreComponents core) {
      Map<List<Object>, MemcacheClient> clients = new ConcurrentHashMap<>();
      core.actorSystem()
          .registerOnTermination(
              () -> {
                clients.values().forEach(MemcacheClient::close);
                return BoxedUnit.UNIT;
              });
      return protocol ->
          new MemcacheComponents(
              clients.computeIfAbsent(
                  Arrays.asList(protocol.config(), protocol.tally()),
                  key ->
                      new MemcacheClient(
                          protocol.config(),
                          core.eventLoopGroup(),
                          Transports.newSocketChannelFactory(
                              core.configuration().netty().useNativeTransport(),
                              core.configuration().netty().useIoUring()),
                          protocol.tally() == null ? new ProtocolErrors() : protocol.tally())),
              core, protocol.timings());
    }
  }
}
