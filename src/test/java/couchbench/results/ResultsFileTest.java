package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
            new Results.Versions("0.1.0", "3.15.1", "17.0.1"), "2026-12-01T10:00:00Z", "2026-12-01T10:00:10Z", null,
            5, RunOutput.HISTOGRAMS),
        List.of(new Results.Entry("memcache get", "request", Results.CLIENT_CLOCK, false, 1001, 1000, 1,
            Map.of("timeout after 1000 ms", 1L), 100.1,
            new Results.Latency("us", 95.5, 90.1, 120.3, 250.7, 900.2, 1500.0, 2000.0),
            "request:memcache_get:ok", "request:memcache_get:ko")),
        Map.of());
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

    assertEquals(1, json.get("schema").asInt());
    assertEquals("MemGet", json.at("/run/simulation").asText());
    assertEquals("16", json.at("/run/parameters/users").asText());
    JsonNode latency = json.at("/requests/0/latency");
    assertEquals("us", latency.get("unit").asText());
    assertEquals(900.2, latency.get("p99.9").asDouble());
    assertEquals(1500.0, latency.get("p99.99").asDouble());
    assertEquals(1L, json.at("/requests/0/failures").get("timeout after 1000 ms").asLong());
  }

  @Test
  void shouldRefuseAnotherSchemaWithOneLine() throws Exception {
    Path file = Files.writeString(folder.resolve("results.json"),
        ResultsFile.toJson(sample()).replace("\"schema\" : 1", "\"schema\" : 2"));

    assertEquals(file + ": schema 2; this couchbench reads schema 1",
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
