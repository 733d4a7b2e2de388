package couchbench.couchdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingRun;
import couchbench.targets.PouchDbServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A password given in the URL, as properties or in the environment is used, and then found nowhere: not in what a
 * run prints, nor in any file it writes (reports, summaries, key files, Gatling's log, the server's log), nor in
 * the environment or the command line of the processes it starts. The password is looked for as given and as the
 * Basic Authorization value it becomes on the wire.
 */
class PasswordLeakIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final String URL_USER = "by_url";
  private static final String URL_SECRET = "url-Secret-7421";
  private static final String PROPERTY_USER = "by_property";
  private static final String PROPERTY_SECRET = "prop-Secret-8533";
  private static final String ENV_USER = "by_env";
  private static final String ENV_SECRET = "env-Secret-9644";
  private static final String WRONG_SECRET = "wrong-Secret-1055";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void shouldUseEveryPasswordAndWriteNoneOfThemAnywhere() throws Exception {
    List<String> printed = new ArrayList<>();
    Path keyFile = Files.createDirectories(Path.of("target", "it-keys")).resolve("secret-" + System.nanoTime() + ".csv");
    try (PouchDbServer couch = PouchDbServer.start()) {
      createAdmins(couch.url());
      // From here on, everything written is the runs' (and the server's while serving them).
      FileTime start = FileTime.from(Instant.now());
      String url = couch.url();

      GatlingRun.Result byUrl = GatlingRun.run("BulkInsert", Map.of("couchdb.url",
          url.replace("//", "//" + URL_USER + ":" + URL_SECRET + "@"), "batchSizes", "4", "threads", "1",
          "docs", "8", "warmup", "2", "stepSeconds", "0"), TIMEOUT);
      GatlingRun.Result byProperties = GatlingRun.run("CouchSet", Map.of("couchdb.url", url,
          "couchdb.user", PROPERTY_USER, "couchdb.password", PROPERTY_SECRET, "users", "2", "duration", "2",
          "keyFile", keyFile.toString(), "database", "secret_it"), TIMEOUT);
      GatlingRun.Result byEnvironment = GatlingRun.run("ViewQuery", Map.of("couchdb.url", url,
          "couchdb.user", ENV_USER, "database", "secret_view", "rate", "10", "conns", "10"),
          Map.of("COUCHDB_PASSWORD", ENV_SECRET), TIMEOUT);
      GatlingRun.Result refused = GatlingRun.run("CouchGet", Map.of("couchdb.url",
          url.replace("//", "//" + URL_USER + ":" + WRONG_SECRET + "@"), "keyFile", keyFile.toString(),
          "database", "secret_it"), TIMEOUT);

      for (GatlingRun.Result run : List.of(byUrl, byProperties, byEnvironment)) {
        assertEquals(0, run.exitCode(), "an admin-only server accepted the password:\n" + run.output());
        printed.add(run.output());
      }
      assertEquals(1, refused.exitCode(), refused.why());
      assertTrue(refused.output().contains("rejects the login of user " + URL_USER), refused.output());
      printed.add(refused.output());
      printed.add(localServerWithPasswordInEnvironment());

      List<Path> written = filesWrittenSince(start);
      for (String expected : List.of("index.html", "summary.html", "simulation.log", keyFile.getFileName().toString(),
          "log.txt", "figures.csv")) {
        assertTrue(written.stream().anyMatch(file -> file.getFileName().toString().equals(expected)),
            "the search covers " + expected + ": " + written);
      }
      for (Path file : written) {
        assertNoSecret(readIfThere(file), file.toString());
      }
    }
    for (String output : printed) {
      assertNoSecret(output.getBytes(StandardCharsets.UTF_8), "the console output:\n" + output);
    }
  }

  /**
   * MemSet with a local memcached while COUCHDB_PASSWORD is set: the JVM has it, as a user's shell gives it, but its
   * command line (what ps shows) and the processes it starts do not.
   *
   * @return what the run printed
   */
  private static String localServerWithPasswordInEnvironment() throws Exception {
    // A 1 s warm-up, not the default 10 s: the processes are looked at before the load, the output after it.
    GatlingRun.Running run = GatlingRun.start("MemSet", Map.of("users", "1", "duration", "3", "warmup", "1",
        "keyFile", Path.of("target", "it-keys", "secret-memcache-" + System.nanoTime() + ".csv").toString()),
        Map.of("COUCHDB_PASSWORD", ENV_SECRET));
    run.awaitLine("couchbench: (started|using the) local memcached .*", TIMEOUT);
    ProcessHandle jvm = run.process().toHandle();
    assertTrue(proc(jvm.pid(), "environ").contains(ENV_SECRET), "the check below can see an inherited variable");
    assertFalse(proc(jvm.pid(), "cmdline").contains(ENV_SECRET), "ps does not show it");
    List<ProcessHandle> started = jvm.descendants().toList();
    assertFalse(started.isEmpty(), "memcached and its wrapper run under the JVM");
    for (ProcessHandle child : started) {
      String environment = proc(child.pid(), "environ");
      assertFalse(environment.contains(ENV_SECRET), child.info().command() + " inherited COUCHDB_PASSWORD");
    }
    GatlingRun.Result result = run.finish(TIMEOUT);
    assertEquals(0, result.exitCode(), result.why());
    return result.output();
  }

  private static void assertNoSecret(byte[] content, String where) {
    String text = new String(content, StandardCharsets.ISO_8859_1);
    for (String secret : List.of(URL_SECRET, PROPERTY_SECRET, ENV_SECRET, WRONG_SECRET)) {
      assertFalse(text.contains(secret), "a password in " + where);
    }
    for (String login : List.of(URL_USER + ":" + URL_SECRET, PROPERTY_USER + ":" + PROPERTY_SECRET,
        ENV_USER + ":" + ENV_SECRET, URL_USER + ":" + WRONG_SECRET)) {
      String basic = Base64.getEncoder().encodeToString(login.getBytes(StandardCharsets.UTF_8));
      assertFalse(text.contains(basic), "a Basic Authorization value in " + where);
    }
  }

  /**
   * Every regular file under the project folder modified since start (target/, reports/ and data/ included), but
   * for the sources, which a run does not write and a developer may be editing.
   */
  private static List<Path> filesWrittenSince(FileTime start) throws IOException {
    Path root = Path.of("").toAbsolutePath();
    Set<Path> sources = Stream.of("src", "simulations", "docs", "bench", ".git").map(root::resolve)
        .collect(Collectors.toSet());
    List<Path> written = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
        return sources.contains(directory) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (attributes.isRegularFile() && attributes.lastModifiedTime().compareTo(start) >= 0) {
          written.add(file);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE; // deleted while walking, e.g. a database file the server compacted
      }
    });
    return written;
  }

  private static byte[] readIfThere(Path file) throws IOException {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new byte[0];
    }
  }

  /** The NUL-separated /proc file of a process, e.g. its environ or cmdline, empty when it has ended. */
  private static String proc(long pid, String file) {
    try {
      return Files.readString(Path.of("/proc", String.valueOf(pid), file), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      return "";
    }
  }

  /** One admin per source of the password: the server then refuses anything without a right login. */
  private static void createAdmins(String url) throws Exception {
    put(url + "/_config/admins/" + URL_USER, URL_SECRET, null);
    String firstAdmin = URL_USER + ":" + URL_SECRET;
    put(url + "/_config/admins/" + PROPERTY_USER, PROPERTY_SECRET, firstAdmin);
    put(url + "/_config/admins/" + ENV_USER, ENV_SECRET, firstAdmin);
  }

  private static void put(String url, String password, String login) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString("\"" + password + "\""));
    if (login != null) {
      request.header("Authorization",
          "Basic " + Base64.getEncoder().encodeToString(login.getBytes(StandardCharsets.UTF_8)));
    }
    HttpResponse<String> reply = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, reply.statusCode(), reply.body());
  }
}
