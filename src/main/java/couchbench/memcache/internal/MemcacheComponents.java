package couchbench.memcache.internal;

import couchbench.memcache.MemcacheTimings;
import couchbench.memcache.client.MemcacheClient;
import couchbench.memcache.client.MemcacheConnections;
import io.gatling.core.CoreComponents;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * What memcache actions share during a run: the client, and Gatling's core components. A virtual
 * user's connections live in its session, opened on its first request and let go when it ends:
 * closed then, unless other users still share them (usersPerConnection, or a shared pool).
 */
public final class MemcacheComponents implements ProtocolComponents {

  private static final String CONNECTIONS = "couchbench.memcache.connections";

  private final MemcacheClient client;
  private final CoreComponents core;
  private final MemcacheTimings timings;

  MemcacheComponents(MemcacheClient client, CoreComponents core, MemcacheTimings timings) {
    this.client = client;
    this.core = core;
    this.timings = timings;
  }

  CoreComponents core() {
    return core;
  }

  MemcacheTimings timings() {
    return timings;
  }

  /** @return the user's connections, and the session that remembers them */
  ConnectionsInSession connections(Session session) {
    if (session.contains(CONNECTIONS)) {
      return new ConnectionsInSession((MemcacheConnections) session.attributes().apply(CONNECTIONS), session);
    }
    MemcacheConnections connections = client.connectionsFor(session.eventLoop());
    return new ConnectionsInSession(connections, session.set(CONNECTIONS, connections));
  }

  /** A user's connections with the session that holds them. */
  record ConnectionsInSession(MemcacheConnections connections, Session session) {}

  @Override
  public Function1<Session, Session> onStart() {
    return session -> session;
  }

  @Override
  public Function1<Session, BoxedUnit> onExit() {
    return session -> {
      ResponseLog.handOverHere(); // before Gatling hears that this user ended
      if (session.contains(CONNECTIONS)) {
        ((MemcacheConnections) session.attributes().apply(CONNECTIONS)).close();
      }
      return BoxedUnit.UNIT;
    };
  }
}
