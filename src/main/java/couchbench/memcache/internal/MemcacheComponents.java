package couchbench.memcache.internal;

import couchbench.memcache.MemcacheTimings;
import couchbench.memcache.client.MemcacheClient;
import couchbench.memcache.client.MemcacheConnections;
import couchbench.memcache.client.ProtocolErrors;
import io.gatling.commons.stats.KO$;
import io.gatling.core.CoreComponents;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import scala.Function1;
import scala.Option;
import scala.runtime.BoxedUnit;

/**
 * What memcache actions share during a run: the client, and Gatling's core components. A virtual
 * user's connections live in its session, opened on its first request and let go when it ends:
 * closed then, unless other users still share them (usersPerConnection, or a shared pool).
 *
 * <p>A reply that no request was waiting for (a server that answers a set twice, or a noreply request) fails no
 * request: the client drops the connection and keeps the error, and the next user to log a response, or to end, logs
 * it as a KO response of its own, named {@value #PROTOCOL_ERROR}, with the server and the reply's first bytes. So the
 * usual assertion of no failed requests fails, and Gatling's error table says what came. One sent as a user's last
 * request was answered may come after every user ended, and be counted only in the client's tally.
 */
public final class MemcacheComponents implements ProtocolComponents {

  private static final String CONNECTIONS = "couchbench.memcache.connections";
  /** The request name of a reply no request was waiting for. */
  static final String PROTOCOL_ERROR = "memcache protocol error";

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

  /** Logs the protocol errors not logged yet as KO responses of this user's, at the time they are logged. */
  void logProtocolErrors(Session session) {
    for (ProtocolErrors.Error error : client.protocolErrors().takeUnreported()) {
      long now = core.clock().nowMillis();
      timings.record(PROTOCOL_ERROR, false, 0);
      ResponseLog.log(core.statsEngine(), session, PROTOCOL_ERROR, now, now, KO$.MODULE$, Option.empty(),
          Option.apply(error.message()));
    }
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
      logProtocolErrors(session);
      ResponseLog.handOverHere(); // before Gatling hears that this user ended
      if (session.contains(CONNECTIONS)) {
        ((MemcacheConnections) session.attributes().apply(CONNECTIONS)).close();
      }
      return BoxedUnit.UNIT;
    };
  }
}
