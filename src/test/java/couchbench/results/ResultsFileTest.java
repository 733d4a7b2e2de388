package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {

  @TempDir
  Path folder;

  static Results sample() {
    return new Results(Results.SCHEMA,
        new Results.Run("MemGet", Map.of("users", "16", "duration", "10"), List.of("memcache 127.0.0.1:11211"),
            new Results.Versions("0.1.0", "3.15.1", "17.0.1"), "2026-12-01T10:00:00Z", "2026-12-01T10:00:10Z", "0/2",
            5, RunOutput.HISTOGRAMS, "2026-12-01T09:59:59Z", 12L),
        List.of(new Results.Entry("memcache get", "request", Results.CLIENT_CLOCK, false, 1001, 1000, 1,
            Map.of("timeout after 1000 ms", 1L), 100.1,
            new Results.Latency("us", 40.2, 95.5, 90.1, 120.3, 250.7, 900.2, 1500.0, 2000.0),
            "request:memcache_get:ok", "request:memcache_get:ko", "2026-12-01T10:00:00.004Z",
            "2026-12-01T10:00:10.001Z")),
        Map.of(),
        List.of(new Results.KeyFile("data/keys/memcache.csv", "data/keys/memcache.injector0of2.csv", 1000)),
        List.of(new Results.ServerCount("memcache cmd_set", 10, "2026-12-01T09:59:58Z", 1010, "2026-12-01T10:00:11Z",
            1000, List.of("memcache set"))),
        new ObjectMapper().createObjectNode().put("keysRead", "data/keys/memcache.csv"), List.of(),
        List.of(new Results.ServerConnections("127.0.0.1:11211", 17, Map.of("closed by the server", 1L), 1, null)));
  }

  @Test
  void shouldReadBackWhatItWrote() {
    Path written = ResultsFile.write(folder, sample());

    assertEquals(folder.resolve("results.json"), written);
    assertEquals(sample(), ResultsFile.read(written));
    assertEquals(sample(), ResultsFile.read(folder), "a run folder names its results.json");
    assertFalse(Files.exists(folder.resolve("results.json.part")));
  }

  @Test
  void shouldWriteTheDocumentedFieldNames() throws Exception {
    JsonNode json = new ObjectMapper().readTree(ResultsFile.toJson(sample()));

    assertEquals(3, json.get("schema").asInt());
    assertEquals("MemGet", json.at("/run/simulation").asText());
    assertEquals("16", json.at("/run/parameters/users").asText());
    JsonNode latency = json.at("/requests/0/latency");
    assertEquals("us", latency.get("unit").asText());
    assertEquals(40.2, latency.get("min").asDouble());
    assertEquals(900.2, latency.get("p99.9").asDouble());
    assertEquals(1500.0, latency.get("p99.99").asDouble());
    assertEquals(1L, json.at("/requests/0/failures").get("timeout after 1000 ms").asLong());
    assertEquals("0/2", json.at("/run/injector").asText());
    assertEquals("2026-12-01T09:59:59Z", json.at("/run/startAt").asText());
    assertEquals(12, json.at("/run/startSkewMillis").asLong());
    assertEquals("2026-12-01T10:00:00.004Z", json.at("/requests/0/firstStart").asText());
    assertEquals("data/keys/memcache.injector0of2.csv", json.at("/keyFiles/0/path").asText());
    assertEquals(1010, json.at("/serverCounts/0/after").asLong());
    assertEquals("data/keys/memcache.csv", json.at("/figures/keysRead").asText());
    assertEquals("127.0.0.1:11211", json.at("/memcacheConnections/0/server").asText());
    assertEquals(17, json.at("/memcacheConnections/0/opened").asLong());
    assertEquals(1, json.at("/memcacheConnections/0/dropped/closed by the server").asLong());
    assertEquals(1, json.at("/memcacheConnections/0/reopened").asLong());
  }

  @Test
  void shouldReadASchemaOneFileWithoutWhatSchemaTwoAdded() throws Exception {
    ObjectNode json = (ObjectNode) new ObjectMapper().readTree(ResultsFile.toJson(sample()));
    json.put("schema", 1);
    json.remove(List.of("keyFiles", "serverCounts"));
    ((ObjectNode) json.get("run")).remove(List.of("startAt", "startSkewMillis"));
    ((ObjectNode) json.at("/requests/0")).remove(List.of("firstStart", "lastEnd"));
    Path file = Files.writeString(folder.resolve("results.json"), json.toString());

    Results read = ResultsFile.read(file);

    assertEquals(1, read.schema());
    assertEquals(sample().requests().get(0).count(), read.requests().get(0).count());
    assertEquals(List.of(), read.keyFiles());
    assertEquals(List.of(), read.serverCounts());
    assertNull(read.run().startAt());
    assertNull(read.requests().get(0).firstStart());
  }

  @Test
  void shouldReadASchemaTwoFileWithoutShortestTimesOrFigures() throws Exception {
    ObjectNode json = (ObjectNode) new ObjectMapper().readTree(ResultsFile.toJson(sample()));
    json.put("schema", 2);
    json.remove("figures");
    ((ObjectNode) json.at("/requests/0/latency")).remove("min");
    Path file = Files.writeString(folder.resolve("results.json"), json.toString());

    Results read = ResultsFile.read(file);

    assertNull(read.requests().get(0).latency().min());
    assertNull(read.figures());
    assertEquals(file + ": no \"figures\" of MemGet (schema 2 has none; they came with schema 3)",
        assertThrows(ResultsException.class, () -> ResultsFile.figures(file, read, Object.class)).getMessage());
  }

  @Test
  void shouldTellMergedResultsAndHowManyInjectorsTheyAddUp() {
    Results.Run run = sample().run();
    Results.Run merged = new Results.Run(run.simulation(), run.parameters(), run.targets(), run.versions(),
        run.start(), run.end(), "*/3", run.intervalSeconds(), run.histograms(), run.startAt(), run.startSkewMillis());

    assertFalse(run.merged(), "injector 0/2's own results");
    assertEquals(1, run.injectorCount());
    assertTrue(merged.merged());
    assertEquals(3, merged.injectorCount());
    assertFalse(ResultsFile.toJson(sample()).contains("injectorCount"), "not a field of results.json");
  }

  /** What a simulation's own figures may look like. */
  record SomeFigures(String keysRead) {}

  @Test
  void shouldReadTheFiguresBackAsTheSimulationsType() {
    Results written = sample();
    Results read = ResultsFile.read(ResultsFile.write(folder, written));

    assertEquals(new SomeFigures("data/keys/memcache.csv"), ResultsFile.figures(folder, read, SomeFigures.class));
    record Other(int users) {}
    String message = assertThrows(ResultsException.class, () -> ResultsFile.figures(folder, read, Other.class))
        .getMessage();
    assertTrue(message.startsWith(folder + ": \"figures\" are not MemGet's ("), message);
  }

  @Test
  void shouldRefuseAnotherSchemaWithOneLine() throws Exception {
    Path file = Files.writeString(folder.resolve("results.json"),
        ResultsFile.toJson(sample()).replace("\"schema\" : 3", "\"schema\" : 4"));

    assertEquals(file + ": schema 4; this couchbench reads schemas [1, 2, 3]",
        assertThrows(ResultsException.class, () -> ResultsFile.read(file)).getMessage());
  }

  @Test
  void shouldRefuseAFileCutShortOrNotOurs() throws Exception {
    String json = ResultsFile.toJson(sample());
    Path cut = Files.writeString(folder.resolve("cut.json"), json.substring(0, json.length() / 2));
    Path other = Files.writeString(folder.resolve("other.json"), "{\"name\": \"x\"}");

    String cutMessage = assertThrows(ResultsException.class, () -> ResultsFile.read(cut)).getMessage();
    assertTrue(cutMessage.startsWith(cut + ": not JSON"), cutMessage);
    assertEquals(other + ": no \"schema\" number: not a couchbench results file",
        assertThrows(ResultsException.class, () -> ResultsFile.read(other)).getMessage());
  }

  @Test
  void shouldSayWhenAFolderHasNoResults() {
    String message = assertThrows(ResultsException.class, () -> ResultsFile.read(folder)).getMessage();
    assertTrue(message.startsWith(folder.resolve("results.json") + ": no such file"), message);
  }
}
