package couchbench.targets;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.startup.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Installs pouchdb-server under target/pouchdb-server on first use, from the package.json and package-lock.json
 * committed as resources, so every machine runs the same pinned tree.
 */
final class PouchDbInstall {

  static final Path HOME = Path.of("target", "pouchdb-server");
  private static final String RESOURCES = "/couchbench/targets/pouchdb-server/";
  // Inside node_modules on purpose: npm ci deletes node_modules first, so a failed install leaves no marker.
  private static final Path MARKER = HOME.resolve("node_modules/.couchbench-package-lock.json");
  private static final Path SCRIPT = HOME.resolve("node_modules/pouchdb-server/bin/pouchdb-server");
  private static final Path LOG = HOME.resolve("npm-install.log");
  private static final List<String> NPM_ARGUMENTS = List.of("ci", "--no-audit", "--no-fund");
  private static final long NPM_TIMEOUT_MINUTES = 10;

  private PouchDbInstall() {}

  /** @return the pinned pouchdb-server version, as package.json names it */
  static String version() {
    try {
      return new ObjectMapper().readTree(resource("package.json")).path("dependencies").path("pouchdb-server").asText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Installs pouchdb-server unless the installed tree was made from the current lockfile. A file lock keeps two
   * JVMs (a test run beside a benchmark) from installing at once; synchronized does the same for threads, which
   * the file lock does not cover.
   *
   * @return the pouchdb-server script, to run with node
   */
  static synchronized Path ensureInstalled(Path npm, String searchPath) {
    try {
      Files.createDirectories(HOME);
      try (FileChannel channel = FileChannel.open(HOME.resolve(".install.lock"),
              StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = lock(channel)) {
        byte[] lockfile = resource("package-lock.json");
        if (Files.exists(HOME.resolve("node_modules/.bin/pouchdb-server")) && Files.exists(MARKER)
            && Arrays.equals(lockfile, Files.readAllBytes(MARKER))) {
          return SCRIPT.toAbsolutePath();
        }
        Console.say("installing pouchdb-server " + version() + " under " + HOME + " (first use only, about a minute)");
        Files.write(HOME.resolve("package.json"), resource("package.json"));
        Files.write(HOME.resolve("package-lock.json"), lockfile);
        runNpm(npm, searchPath);
        Files.write(MARKER, lockfile);
        return SCRIPT.toAbsolutePath();
      }
    } catch (IOException e) {
      throw new TargetException("could not install pouchdb-server under " + HOME + ": " + e, e);
    }
  }

  /** Takes the install lock, saying so when another JVM holds it: an install takes a silent minute otherwise. */
  private static FileLock lock(FileChannel channel) throws IOException {
    FileLock lock = channel.tryLock();
    if (lock != null) {
      return lock;
    }
    Console.say("waiting for another couchbench run to finish installing pouchdb-server under " + HOME);
    return channel.lock();
  }

  private static void runNpm(Path npm, String searchPath) throws IOException {
    String command = "npm " + String.join(" ", NPM_ARGUMENTS);
    ProcessBuilder builder = new ProcessBuilder(npm.toString()).directory(HOME.toFile())
        .redirectErrorStream(true).redirectOutput(LOG.toFile());
    builder.command().addAll(NPM_ARGUMENTS);
    builder.environment().put("PATH", searchPath);
    // The servers and npm have no use for the CouchDB password a user may keep in the environment.
    builder.environment().remove(TargetSettings.PASSWORD_VARIABLE);
    Process npmProcess = builder.start();
    try {
      if (!npmProcess.waitFor(NPM_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        npmProcess.destroyForcibly();
        throw new TargetException("`" + command + "` in " + HOME + " did not finish within " + NPM_TIMEOUT_MINUTES
            + " minutes: see " + LOG);
      }
    } catch (InterruptedException e) {
      npmProcess.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new TargetException("interrupted while running `" + command + "` in " + HOME);
    }
    if (npmProcess.exitValue() != 0) {
      throw new TargetException("`" + command + "` in " + HOME + " failed (exit " + npmProcess.exitValue() + "): "
          + lastLines(4) + " (full output in " + LOG + ")");
    }
  }

  private static String lastLines(int count) throws IOException {
    // Decoded leniently: npm's output may hold bytes that are not UTF-8, and this only quotes it.
    List<String> lines = new String(Files.readAllBytes(LOG), StandardCharsets.UTF_8).lines()
        .filter(line -> !line.isBlank()).toList();
    return String.join(" | ", lines.subList(Math.max(0, lines.size() - count), lines.size()));
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = PouchDbInstall.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IOException("resource " + RESOURCES + name + " is missing from the classpath");
      }
      return in.readAllBytes();
    }
  }
}
