package couchbench.attachment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.HttpPassThrough;
import couchbench.report.Table;
import couchbench.results.ResultsFile;
import couchbench.targets.PouchDbServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** AttachmentUpload run as a user runs it, in its own Gatling JVM, against a real pouchdb-server. */
class AttachmentUploadIT {

  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(4);
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Shared by the tests (and kept between builds): generated once, then checked and reused. */
  private static final Path DATA = Path.of("target", "it-attachments").toAbsolutePath();
  private static final List<String> METHODS = List.of("raw", "base64", "multipart", "bulk");

  private static PouchDbServer couch;

  @BeforeAll
  static void startCouch() {
    couch = PouchDbServer.start();
  }

  @AfterAll
  static void stopCouch() {
    couch.close();
  }

  @Test
  void shouldUploadEveryWayUpTo10To6AndVerifyEveryUpload() throws Exception {
    GatlingRun.Result run = GatlingRun.run("AttachmentUpload", Map.of("couchdb.url", couch.url(),
        "maxExponent", "6", "repeat", "1", "keep", "true", "dataDir", DATA.toString()), RUN_TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    Path folder = run.requireRunFolder();
    List<Map<String, String>> sizes = csv(folder.resolve("upload-times-by-size.csv"));
    assertEquals(List.of("1", "2", "3", "4", "5", "6"), sizes.stream().map(row -> row.get("n")).toList());
    Map<String, GatlingReport.Counts> gatling = GatlingReport.requests(folder);
    for (Map<String, String> size : sizes) {
      String n = size.get("n");
      assertEquals("4", size.get("uploads verified"), "10^" + n + ": every method, once, read back intact");
      assertEquals("4", size.get("uploads planned"));
      for (String column : List.of("raw median s", "base64 median s", "multipart median s",
          "bulk median s per request", "bulk median s per document")) {
        assertTrue(Double.parseDouble(size.get(column)) > 0, "10^" + n + " " + column + ": " + size);
      }
      for (String method : METHODS) {
        assertEquals(new GatlingReport.Counts(1, 1, 0), gatling.get(method + " 10^" + n), method + " 10^" + n);
        assertEquals(new GatlingReport.Counts(1, 1, 0), gatling.get("verify " + method + " 10^" + n),
            "the read-back has its own request name");
      }
    }
    for (Map<String, String> ratios : csv(folder.resolve("ratios-to-raw.csv"))) {
      assertEquals(4, ratios.values().stream().filter(cell -> !cell.isEmpty()).count(), "complete: " + ratios);
    }
    String summary = Files.readString(folder.resolve("summary.html"));
    assertTrue(summary.contains("data:image/png;base64,"), "the chart is embedded");
    assertEquals(1, summary.split("Warning: ", -1).length - 1, "one warning: " + summary);
    assertTrue(summary.contains("Warning: 24 figure(s) rest on fewer than 8 uploads and less than 2 s of uploading"
        + " (-Drepeat=1;"), "-Drepeat=1 is under the step-length rule, and the page says so: " + summary);

    // Independently of the run's own check: the stored bytes are the generated file's.
    String database = database(run.output());
    for (String doc : List.of("raw-6-1", "base64-6-1", "multipart-6-1")) {
      HttpResponse<byte[]> attachment = get("/" + database + "/" + doc + "/att");
      assertEquals(200, attachment.statusCode(), doc);
      assertEquals(md5(Files.readAllBytes(DATA.resolve("1e6.txt"))), md5(attachment.body()), doc);
    }
    JsonNode info = JSON.readTree(get("/" + database).body());
    assertEquals(6 * 3 + 6 * 10, info.path("doc_count").asInt(), "one document per upload, ten per bulk upload");
    HTTP.send(HttpRequest.newBuilder(URI.create(couch.url() + "/" + database)).DELETE().build(),
        HttpResponse.BodyHandlers.discarding());
  }

  @Test
  void shouldSweepTwiceWithEachRoundsRequestsApartAndGiveTheMedianOfTheRounds() throws Exception {
    GatlingRun.Result run = GatlingRun.run("AttachmentUpload", Map.of("couchdb.url", couch.url(),
        "maxExponent", "2", "rounds", "2", "keep", "true", "dataDir", DATA.toString()), RUN_TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    Path folder = run.requireRunFolder();
    Map<String, GatlingReport.Counts> gatling = GatlingReport.requests(folder);
    Set<String> names = new HashSet<>();
    ResultsFile.read(folder).requests().forEach(entry -> names.add(entry.name()));
    for (String method : METHODS) {
      for (String size : List.of("10^1", "10^2")) {
        for (String round : List.of(" round 1", " round 2")) {
          // Without -Drepeat, a few milliseconds' uploads go on to 8: the step-length rule.
          String name = method + " " + size + round;
          assertEquals(new GatlingReport.Counts(8, 8, 0), gatling.get(name), name);
          assertEquals(new GatlingReport.Counts(8, 8, 0), gatling.get("verify " + method + " " + size + round));
          assertTrue(names.contains(name), "results.json has each round's name: " + names);
        }
        assertFalse(gatling.containsKey(method + " " + size), "no name without its round: " + gatling.keySet());
      }
    }
    List<Map<String, String>> sizes = csv(folder.resolve("upload-times-by-size.csv"));
    assertEquals(2, sizes.size());
    for (Map<String, String> size : sizes) {
      assertEquals("64", size.get("uploads verified"), "2 rounds x 4 methods x 8: " + size);
      assertEquals("24", size.get("uploads planned"), "2 rounds x 4 methods x 3 at least: " + size);
      for (String method : List.of("raw", "base64", "multipart")) {
        double min = Double.parseDouble(size.get(method + " min s"));
        double median = Double.parseDouble(size.get(method + " median s"));
        double max = Double.parseDouble(size.get(method + " max s"));
        assertTrue(0 < min && min <= median && median <= max, method + ": " + size);
      }
    }
    List<Map<String, String>> rounds = csv(folder.resolve("each-round-s-figures.csv"));
    assertEquals(2 * 2 * 4, rounds.size(), "a figure per round, size and method: " + rounds);
    for (Map<String, String> figure : rounds) {
      assertEquals("8", figure.get("uploads verified"), figure.toString());
      assertEquals("yes", figure.get("rests on 8 uploads or 2 s"), figure.toString());
    }
    assertEquals("series,attachment size (bytes),median upload time (s),smallest round,largest round",
        Files.readAllLines(folder.resolve("upload-time-against-size.csv")).get(0));
    String summary = Files.readString(folder.resolve("summary.html"));
    assertTrue(summary.contains("median of 2 rounds"), summary);
    assertFalse(summary.contains("Warning"), summary);
    String database = database(run.output());
    JsonNode info = JSON.readTree(get("/" + database).body());
    assertEquals(2 * 2 * (3 * 8 + 8 * 10), info.path("doc_count").asInt(), "every round's documents, apart");
    HTTP.send(HttpRequest.newBuilder(URI.create(couch.url() + "/" + database)).DELETE().build(),
        HttpResponse.BodyHandlers.discarding());
  }

  @Test
  void shouldReportARefusedSizeAndGoOnWithTheNext() throws Exception {
    try (HttpPassThrough proxy = SizeLimitProxy.start(couch.url(), 5_000, 50_000)) {
      GatlingRun.Result run = GatlingRun.run("AttachmentUpload", Map.of("couchdb.url", proxy.url(),
          "maxExponent", "5", "repeat", "2", "bulkDocs", "2", "dataDir", DATA.toString()), RUN_TIMEOUT);

      assertEquals(2, run.exitCode(), "failed requests fail the run, after its reports: " + run.output());
      Path folder = run.requireRunFolder();
      List<Map<String, String>> sizes = csv(folder.resolve("upload-times-by-size.csv"));
      assertEquals(List.of("8", "8", "8", "0", "0"), sizes.stream().map(row -> row.get("uploads verified")).toList(),
          "10^1..10^3 pass (every body within 5000 bytes), 10^4 and 10^5 are refused");
      Map<String, String> failures = new HashMap<>();
      for (Map<String, String> failure : csv(folder.resolve("failed-uploads.csv"))) {
        failures.put(failure.get("method") + " " + failure.get("size"), failure.get("failure"));
        assertEquals("1", failure.get("uploads"), "a refused size is tried once per method");
      }
      assertEquals(8, failures.size(), failures.toString());
      for (String method : METHODS) {
        assertEquals("413 too_large: the request entity is too large", failures.get(method + " 10^4"));
        assertTrue(failures.get(method + " 10^5").startsWith("no reply"), failures.get(method + " 10^5"));
        assertTrue(run.output().contains("couchbench: " + method + " 10^4 failed: 413 too_large"), run.output());
      }
      assertEquals(4, uploads(proxy, 5_000, 50_000).size(), "each method tried 10^4: " + proxy.requests());
      // Gatling's client may resend a request once when the server drops a reused connection: distinct uploads count.
      assertEquals(4, uploads(proxy, 50_000, Long.MAX_VALUE).size(),
          "and went on to 10^5, with every method: " + proxy.requests());
      assertTrue(proxy.requests().stream().noneMatch(r -> r.contains("-4-2") || r.contains("-5-2")),
          "a refused size is not tried again: " + proxy.requests());
      assertTrue(Files.readString(folder.resolve("summary.html")).contains("Warning: raw 10^4 failed: 413"));
      Map<String, GatlingReport.Counts> gatling = GatlingReport.requests(folder);
      assertEquals(new GatlingReport.Counts(1, 0, 1), gatling.get("multipart 10^5"));
      assertEquals(new GatlingReport.Counts(2, 2, 0), gatling.get("multipart 10^3"));
    }
  }

  /** @return the distinct requests ("METHOD /path") the proxy saw with a body longer than above, up to atMost bytes */
  private static Set<String> uploads(HttpPassThrough proxy, long above, long atMost) {
    Set<String> uploads = new HashSet<>();
    for (String request : proxy.requests()) {
      int space = request.lastIndexOf(' ');
      long length = Long.parseLong(request.substring(space + 1));
      if (length > above && length <= atMost) {
        uploads.add(request.substring(0, space));
      }
    }
    return uploads;
  }

  private static String database(String output) {
    int at = output.indexOf("database couchbench_attachment_");
    assertTrue(at >= 0, output);
    return output.substring(at + "database ".length()).split("[\\s,.]")[0];
  }

  private static HttpResponse<byte[]> get(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(couch.url() + path)).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static String md5(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
  }

  private static List<Map<String, String>> csv(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    List<String> header = Table.csvCells(lines.get(0));
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      List<String> cells = Table.csvCells(line); // failure messages are quoted: they may hold commas
      Map<String, String> row = new HashMap<>();
      for (int i = 0; i < header.size(); i++) {
        row.put(header.get(i), cells.get(i));
      }
      rows.add(row);
    }
    return rows;
  }

}
