package couchbench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;

import couchbench.couchdb.DatabaseInfo;
import couchbench.report.Table;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceSnapshotTest {

  private static ResourceSnapshot snapshot(Object... nameValue) {
    Map<String, Optional<BigDecimal>> figures = new LinkedHashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      figures.put((String) nameValue[i], Optional.ofNullable((String) nameValue[i + 1]).map(BigDecimal::new));
    }
    return new ResourceSnapshot(figures);
  }

  @Test
  void shouldSubtractFigureByFigureExactlyAndKeepNotOfferedOnesNotAvailable() {
    ResourceSnapshot before = snapshot("items", "10", "cpu (s)", "0.100001", "disk", null);
    ResourceSnapshot after = snapshot("items", "35", "cpu (s)", "0.3", "disk", null, "new", "4");

    ResourceSnapshot delta = after.minus(before);

    assertEquals(List.of("items", "cpu (s)", "disk", "new"), List.copyOf(delta.figures().keySet()));
    assertEquals(Optional.of(new BigDecimal("25")), delta.value("items"));
    assertEquals(Optional.of(new BigDecimal("0.199999")), delta.value("cpu (s)"), "no double rounding");
    assertEquals(Optional.empty(), delta.value("disk"));
    assertEquals(Optional.empty(), delta.value("new"), "no before value: no delta");
    assertEquals(Optional.empty(), delta.value("unknown"));
  }

  @Test
  void shouldTabulateBeforeAfterAndDelta() {
    ResourceSnapshot before = snapshot("memcache curr_items", "0", "couchdb sizes.file (bytes)", null)
        .and(snapshot("memcached cpu time (s)", "0.01"));
    ResourceSnapshot after = snapshot("memcache curr_items", "2000", "couchdb sizes.file (bytes)", null)
        .and(snapshot("memcached cpu time (s)", "0.25"));

    Table table = ResourceSnapshot.table(before, after);

    assertEquals(List.of("figure", "before", "after", "delta"), table.columns());
    assertEquals(List.of(
            List.of("memcache curr_items", "0", "2000", "2000"),
            List.of("couchdb sizes.file (bytes)", "n/a", "n/a", "n/a"),
            List.of("memcached cpu time (s)", "0.01", "0.25", "0.24")),
        table.rows());
  }

  @Test
  void shouldSumMemcacheStatsOverServersAndNotGuessMissingOnes() {
    List<Map<String, String>> servers = List.of(
        Map.of("curr_items", "3", "rusage_user", "0.012345", "version", "1.6.18"),
        Map.of("curr_items", "4", "rusage_user", "1.000001"));

    assertEquals(Optional.of(new BigDecimal("7")), MemcacheResources.sum(servers, "curr_items"));
    assertEquals(Optional.of(new BigDecimal("1.012346")), MemcacheResources.sum(servers, "rusage_user"));
    assertEquals(Optional.empty(), MemcacheResources.sum(servers, "version"), "one server lacks it");
    assertEquals(Optional.empty(), MemcacheResources.sum(List.of(Map.of("v", "1.2.1")), "v"), "not a number");
    assertEquals("memcache server b:2 reports no version; memcache server a:1 reports version as no number"
        + " (\"1.6.18\")", MemcacheResources.lacking(List.of("a:1", "b:2"), servers, "version"), "which server, why");
    assertEquals("memcache servers a:1, b:2 report no cmd_set", MemcacheResources.lacking(List.of("a:1", "b:2"),
        List.of(Map.of(), Map.of()), "cmd_set"));
    assertEquals("memcache server a:1 reports no cmd_set; memcache server b:2 reports cmd_set as no number (\"n/a\")",
        MemcacheResources.lacking(List.of("a:1", "b:2"), List.of(Map.of(), Map.of("cmd_set", "n/a")), "cmd_set"));
  }

  @Test
  void shouldReadCouchDbThreeAndPouchDbDatabaseInfo() {
    DatabaseInfo couch = DatabaseInfo.parse(bytes("{\"db_name\":\"d\",\"doc_count\":12,\"doc_del_count\":0,"
        + "\"sizes\":{\"file\":41234,\"external\":1200,\"active\":2300},\"update_seq\":\"12-g1AAAA\"}"));
    assertEquals(new DatabaseInfo(12, OptionalLong.of(41234), OptionalLong.of(2300), OptionalLong.of(1200),
        OptionalLong.empty()), couch);
    DatabaseInfo pouch = DatabaseInfo.parse(bytes("{\"doc_count\":1,\"update_seq\":1,\"adapter\":\"leveldb\","
        + "\"disk_size\":4870}"));
    assertEquals(new DatabaseInfo(1, OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
        OptionalLong.of(4870)), pouch);
  }

  @Test
  void shouldReadNodeStatisticsWhereOffered() {
    Optional<com.fasterxml.jackson.databind.JsonNode> stats = CouchResources.json(bytes(
        "{\"couchdb\":{\"httpd\":{\"requests\":{\"value\":42,\"type\":\"counter\"}},"
            + "\"database_writes\":{\"value\":7}}}"));

    assertEquals(Optional.of(new BigDecimal("42")), CouchResources.at(stats, "couchdb", "httpd", "requests", "value"));
    assertEquals(Optional.empty(), CouchResources.at(stats, "couchdb", "database_reads", "value"));
    assertEquals(Optional.empty(), CouchResources.at(stats, "couchdb", "httpd"), "an object is not a figure");
    assertEquals(Optional.empty(), CouchResources.at(Optional.empty(), "memory", "total"), "no document: n/a");
  }

  @Test
  void shouldMeasureTheFilesUnderADirectory(@TempDir Path dir) throws IOException {
    Files.write(dir.resolve("a"), new byte[100]);
    Files.createDirectories(dir.resolve("sub/deeper"));
    Files.write(dir.resolve("sub/deeper/b"), new byte[23]);

    assertEquals(new BigDecimal(123), LocalProcess.bytes(dir));
    assertEquals(BigDecimal.ZERO, LocalProcess.bytes(dir.resolve("gone")));
  }

  @Test
  void shouldReadResidentMemoryInBytesFromProcStatus(@TempDir Path proc) throws IOException {
    Files.createDirectories(proc.resolve("4242"));
    Files.writeString(proc.resolve("4242/status"), "Name:\tmemcachedb\nVmPeak:\t  90000 kB\nVmRSS:\t   6144 kB\n");

    assertEquals(Optional.of(new BigDecimal(6144 * 1024)), LocalProcess.residentBytes(4242, proc));
    assertEquals(Optional.empty(), LocalProcess.residentBytes(4343, proc), "a process gone: n/a");
  }

  @Test
  void shouldGiveThePhasesLengthAndEachProcesssCpuPercentWhenTheSnapshotsAreClocked() {
    ResourceSnapshot before = snapshot("memcached cpu time (s)", "1.5", "pouchdb-server cpu time (s)", "10",
        ResourceSnapshot.CLOCK, "1000.25");
    ResourceSnapshot after = snapshot("memcached cpu time (s)", "2.5", "pouchdb-server cpu time (s)", "13",
        ResourceSnapshot.CLOCK, "1002.25");

    assertEquals(List.of(
            List.of("memcached cpu time (s)", "1.5", "2.5", "1"),
            List.of("pouchdb-server cpu time (s)", "10", "13", "3"),
            List.of("phase length (s)", "", "", "2"),
            List.of("memcached cpu % of the phase", "", "", "50"),
            List.of("pouchdb-server cpu % of the phase", "", "", "150")),
        ResourceSnapshot.table(before, after).rows());
  }

  @Test
  void shouldCountItemsGainedByCurrItemsElseByCmdSetAndSayWhich() {
    ResourceSnapshot memcached = snapshot("memcache curr_items", "10", "memcache cmd_set", "12");
    ResourceSnapshot memcacheDb = snapshot("memcache curr_items", null, "memcache cmd_set", "744346");

    assertEquals(Optional.of(new MemcacheResources.ItemsGained(MemcacheResources.CURR_ITEMS, new BigDecimal(10))),
        MemcacheResources.itemsGained(memcached));
    assertEquals(Optional.of(new MemcacheResources.ItemsGained(MemcacheResources.CMD_SET, new BigDecimal(744346))),
        MemcacheResources.itemsGained(memcacheDb), "MemcacheDB 1.2 has no curr_items");
    assertEquals(Optional.empty(), MemcacheResources.itemsGained(snapshot("memcache curr_items", null)));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
