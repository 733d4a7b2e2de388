package couchbench.couchdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.HttpPassThrough;
import couchbench.targets.CouchTarget;
import couchbench.targets.CouchWaits;
import couchbench.targets.Credentials;
import couchbench.targets.PouchDbServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A request that gets no reply, through a proxy in front of a real pouchdb-server: a server that still answers /_up
 * is said to be busy, with the setting that waits longer; only one that answers nothing is to be started.
 */
class SlowServerIT {

  private static final CouchWaits ONE_SECOND = new CouchWaits(Duration.ofSeconds(1), Optional.empty());
  private static final String PASSWORD = "never-in-a-message";

  @Test
  void shouldSayAServerThatAnswersUpButNotTheRequestIsBusyAndNameTheSettingThatWaitsLonger() throws Exception {
    // The proxy holds the view's query unanswered, as a server busy building its index does; the rest passes.
    try (PouchDbServer couch = PouchDbServer.start(); HttpPassThrough busy = new HttpPassThrough(couch.url(),
        (exchange, length) -> exchange.getRequestURI().getPath().startsWith("/orders/_design/"))) {
      CouchDbClient client = client(busy.url());

      CouchDbException e = assertThrows(CouchDbException.class,
          () -> client.get("/orders/_design/by/_view/owner?limit=1"));

      assertEquals("CouchDB at " + busy.url() + " answered /_up but not GET /orders/_design/by/_view/owner?limit=1"
          + " within 1 s: it is up, and busy; set -Dcouchdb.timeout=SECONDS (now 1) to wait longer", e.getMessage());
      assertFalse(e.getMessage().contains(PASSWORD));
      assertTrue(busy.requests().contains("GET /_up 0"), busy.requests().toString());
    }
  }

  @Test
  void shouldSayAServerThatAnswersNeitherTheRequestNorUpIsToBeStarted() throws Exception {
    // Nothing is passed on: the server behind it is never asked.
    try (HttpPassThrough silent = new HttpPassThrough("http://127.0.0.1:1", (exchange, length) -> true)) {
      CouchDbException e = assertThrows(CouchDbException.class, () -> client(silent.url()).get("/orders"));

      assertEquals("CouchDB at " + silent.url() + " did not answer GET /orders (HttpTimeoutException), nor GET /_up:"
          + " start it or set -Dcouchdb.url", e.getMessage());
    }
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String url = "http://127.0.0.1:" + closed.getLocalPort();
      closed.close();

      CouchDbException e = assertThrows(CouchDbException.class, () -> client(url).get("/orders"));

      assertEquals("CouchDB at " + url + " did not answer GET /orders (ConnectException), nor GET /_up: start it or"
          + " set -Dcouchdb.url", e.getMessage());
    }
  }

  private static CouchDbClient client(String url) {
    return new CouchDbClient(new CouchTarget(url, Optional.of(new Credentials("admin", PASSWORD)), false)
        .waiting(ONE_SECOND));
  }
}
