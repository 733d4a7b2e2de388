package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class CouchUrlTest {

  @Test
  void shouldStripUserInfoAndTrailingSlashes() {
    CouchUrl url = CouchUrl.parse("HTTP://admin:pw@DB1.example:5984/couch//");
    assertEquals("http://DB1.example:5984/couch", url.baseUrl());
    assertEquals(Optional.of("admin"), url.user());
    assertEquals(Optional.of("pw"), url.password());
  }

  @Test
  void shouldKeepAUrlWithoutPortOrLogin() {
    CouchUrl url = CouchUrl.parse("https://couch.example/");
    assertEquals("https://couch.example", url.baseUrl());
    assertEquals(Optional.empty(), url.user());
    assertEquals(Optional.empty(), url.password());
    assertEquals("http://[::1]:5984", CouchUrl.parse("http://[::1]:5984").baseUrl());
  }

  @Test
  void shouldMaskEverythingBetweenUserAndLastAt() {
    assertEquals("http://admin:*****@db1:5984", CouchUrl.mask("http://admin:secret@db1:5984"));
    assertEquals("http://admin:*****@db1:5984", CouchUrl.mask("http://admin:p@ss:w/rd@db1:5984"));
    assertEquals("http://admin@db1:5984", CouchUrl.mask("http://admin@db1:5984"));
    assertEquals("http://db1:5984/x", CouchUrl.mask("http://db1:5984/x"));
  }
}
