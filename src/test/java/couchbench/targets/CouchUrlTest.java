package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.SettingsException;
import java.util.List;
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

  @Test
  void shouldParseSeveralNodesInTheOrderGiven() {
    List<CouchUrl> nodes = CouchUrl.parseAll("http://admin:pw@a:5984, http://b:5984/,http://c:5984");
    assertEquals(List.of("http://a:5984", "http://b:5984", "http://c:5984"),
        nodes.stream().map(CouchUrl::baseUrl).toList());
    assertEquals(Optional.of("admin"), nodes.get(0).user());
  }

  @Test
  void shouldRefuseANodeGivenTwiceOrMixedSchemesInOneLine() {
    SettingsException twice = assertThrows(SettingsException.class,
        () -> CouchUrl.parseAll("http://a:5984,http://b:5984,http://A:5984/"));
    assertEquals("-Dcouchdb.url names http://A:5984 twice: give each node once", twice.getMessage());
    SettingsException mixed = assertThrows(SettingsException.class,
        () -> CouchUrl.parseAll("https://a:6984,http://b:5984"));
    assertTrue(mixed.getMessage().startsWith("-Dcouchdb.url mixes http and https"), mixed.getMessage());
  }

  @Test
  void shouldMaskThePasswordOfEveryNode() {
    assertEquals("http://admin:*****@a:5984,http://admin:*****@b:5984,http://c:5984",
        CouchUrl.maskAll("http://admin:secret@a:5984,http://admin:secret@b:5984,http://c:5984"));
  }
}
