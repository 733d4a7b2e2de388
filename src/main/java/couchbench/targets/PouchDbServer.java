package couchbench.targets;

import couchbench.process.ChildProcess;
import couchbench.process.Executables;
import couchbench.process.FreePort;
import couchbench.process.Readiness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A pouchdb-server child process on 127.0.0.1: the local stand-in for CouchDB. It keeps its data, its config and
 * its logs in a fresh directory under target/pouchdb-server, deleted by {@link #close()}.
 */
public final class PouchDbServer implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  static final String NEEDS_NODE = "couchbench needs Node.js and npm to start a local CouchDB stand-in: install them"
      + " (apt-get install nodejs npm) or point at your CouchDB with -Dcouchdb.url=http://user:password@host:5984";

  private final ChildProcess process;
  private final int port;
  private final Path dataDirectory;

  private PouchDbServer(ChildProcess process, int port, Path dataDirectory) {
    this.process = process;
    this.port = port;
    this.dataDirectory = dataDirectory;
  }

  /**
   * Installs pouchdb-server on first use, then starts it on a free port with a fresh data directory and waits
   * until it answers.
   *
   * @return the running server
   * @throws TargetException when node or npm is missing, the install fails, or the server does not answer
   */
  public static PouchDbServer start() {
    return start(Executables.systemPath());
  }

  /** Same, finding node and npm on searchPath. */
  static PouchDbServer start(String searchPath) {
    Installed installed = Installed.on(searchPath);
    return FreePort.withFreePort(port -> attempt(installed, port));
  }

  /**
   * Same on one given port, for the tests of the default port 5984.
   *
   * @return the running server, or empty when another process listens on that port
   * @throws TargetException as {@link #start()}, and when a killed run left that port's data directory behind
   */
  static Optional<PouchDbServer> startOn(int port) {
    // Looked at first: whatever answers there would pass for the new server while it is still starting.
    if (FreePort.isTaken(port)) {
      return Optional.empty();
    }
    Optional<PouchDbServer> server = attempt(Installed.on(Executables.systemPath()), port);
    if (server.isEmpty() && !FreePort.isTaken(port)) {
      throw new TargetException("could not start pouchdb-server on port " + port + ": " + dataDirectory(port)
          + " is left from an earlier run that was killed; delete it");
    }
    return server;
  }

  /** node and the installed pouchdb-server script, found on a search path. */
  private record Installed(Path node, Path script, String searchPath) {

    static Installed on(String searchPath) {
      Path node = Executables.find("node", searchPath).orElseThrow(() -> new TargetException(NEEDS_NODE));
      Path npm = Executables.find("npm", searchPath).orElseThrow(() -> new TargetException(NEEDS_NODE));
      return new Installed(node, PouchDbInstall.ensureInstalled(npm, searchPath), searchPath);
    }
  }

  private static Path dataDirectory(int port) {
    return PouchDbInstall.HOME.resolve("data-" + port);
  }

  private static Optional<PouchDbServer> attempt(Installed installed, int port) {
    Path dataDirectory = dataDirectory(port);
    try {
      Files.createDirectory(dataDirectory);
    } catch (FileAlreadyExistsException e) {
      return Optional.empty(); // left by a run that was killed, or another JVM's: try another port
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return launch(installed, port, dataDirectory);
  }

  private static Optional<PouchDbServer> launch(Installed installed, int port, Path dataDirectory) {
    // Run in the data directory: pouchdb-server writes its config.json and log.txt to its working directory.
    // -n keeps its request log out of stdout; the log file holds it.
    List<String> command = List.of(installed.node().toString(), installed.script().toString(),
        "--port", String.valueOf(port),
        "--host", FreePort.LOOPBACK, "--dir", dataDirectory.toAbsolutePath().toString(), "-n");
    ChildProcess process = ChildProcess.start("pouchdb-server", command, dataDirectory,
        dataDirectory.resolve("pouchdb-server.log"), dataDirectory, installed.searchPath());
    String url = "http://" + FreePort.LOOPBACK + ":" + port;
    if (Readiness.await(process, () -> CouchProbe.probe(url, Optional.empty()).answers(), START_TIMEOUT, port)) {
      return Optional.of(new PouchDbServer(process, port, dataDirectory));
    }
    return Optional.empty();
  }

  /** @return http://127.0.0.1:PORT, without a trailing slash */
  public String url() {
    return "http://" + FreePort.LOOPBACK + ":" + port;
  }

  /** @return the port it listens on, on 127.0.0.1 */
  public int port() {
    return port;
  }

  /** @return the directory holding its databases, config and logs (relative to the project root) */
  public Path dataDirectory() {
    return dataDirectory;
  }

  /** @return the pid of the node process that serves, e.g. to measure its CPU time */
  public long pid() {
    return process.pid();
  }

  /** @return its pid and data directory, for resource figures */
  public LocalServer local() {
    return new LocalServer("pouchdb-server", pid(), Optional.of(dataDirectory));
  }

  /**
   * Stops the server and starts it again on the same port with the same data, as a CouchDB restart
   * would: for tests of a target that goes away in the middle of a run.
   *
   * @return the restarted server, to close instead of this one
   * @throws TargetException when it does not answer again
   */
  public PouchDbServer restart() {
    process.stop(true);
    return launch(Installed.on(Executables.systemPath()), port, dataDirectory)
        .orElseThrow(() -> new TargetException("pouchdb-server did not start again on port " + port));
  }

  /** Stops the server, waits until it has exited, and deletes its data directory. */
  @Override
  public void close() {
    process.close();
  }
}
