package couchbench.targets;

import couchbench.Prerequisites;
import couchbench.process.ChildProcess;
import couchbench.process.Executables;
import couchbench.process.FreePort;
import couchbench.process.ProcessException;
import couchbench.process.Readiness;
import couchbench.process.ServerFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * CouchDB 3.5.0's Nouveau server (Lucene behind a Java server) for the tests of search: the dist in ../shared/couchdb/,
 * unpacked once under target/nouveau-3.5.0, run on loopback ports of its own with an index folder of its own, deleted
 * when it closes; and a CouchDB node set to use it ([nouveau] enable and url). A user's machine has neither: the test
 * then skips in one line (or fails, in CI: {@link Prerequisites}).
 */
public final class RealNouveau implements AutoCloseable {

  static final Path TARBALL = Path.of("..", "shared", "couchdb", "nouveau-3.5.0-dist.tar.gz");
  private static final Path UNPACKED = Path.of("target", "nouveau-3.5.0");
  private static final Path SERVERS = Path.of("target", "nouveau-servers");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  /** Why a test of search skipped, with the fix. */
  public static final String NOT_HERE = "no Apache CouchDB 3.5 with Nouveau here (" + RealCouchDb.TARBALL + " and "
      + TARBALL + ")";

  private final Path dist;
  private final Path folder;
  private int port;
  private int adminPort;
  private ChildProcess process;

  private RealNouveau(Path dist) {
    this.dist = dist;
    this.folder = SERVERS.resolve("nv" + UUID.randomUUID().toString().substring(0, 8)).toAbsolutePath();
  }

  /**
   * Starts a Nouveau server and waits until its health check answers.
   *
   * @param dist the unpacked dist (holding bin/nouveau)
   * @return the server
   */
  public static RealNouveau start(Path dist) {
    RealNouveau nouveau = new RealNouveau(dist);
    nouveau.start();
    return nouveau;
  }

  /** @return http://127.0.0.1:PORT, the URL CouchDB's [nouveau] url names */
  public String url() {
    return "http://" + FreePort.LOOPBACK + ":" + port;
  }

  /** @return the JVM's pid (bin/nouveau execs it) */
  public long pid() {
    return process.pid();
  }

  /** @return local.ini's lines that make a CouchDB node use this server */
  public List<String> couchIni() {
    return List.of("[nouveau]", "enable = true", "url = " + url());
  }

  /** Starts the server (again, after {@link #stop}, on the same ports with the same indexes). */
  public synchronized void start() {
    if (process != null && process.isRunning()) {
      return;
    }
    if (port == 0) {
      port = FreePort.pick();
      adminPort = FreePort.pick();
    }
    try {
      Files.createDirectories(folder.resolve("indexes"));
    } catch (IOException e) {
      throw new ProcessException("nouveau: cannot make " + folder + ": " + e.getMessage());
    }
    process = ChildProcess.start("nouveau", List.of("env", "NOUVEAU_INDEX_DIR=" + folder.resolve("indexes"),
            "NOUVEAU_PORT=" + port, "NOUVEAU_ADMIN_PORT=" + adminPort,
            "JAVA_OPTS=-Xmx512m -Ddw.logging.level=WARN", dist.resolve("bin/nouveau").toString()), dist,
        folder.resolve("nouveau.log"), folder, Executables.systemPath());
    if (!Readiness.await(process, this::healthy, START_TIMEOUT, adminPort)) {
      throw new ProcessException("nouveau: port " + adminPort + " was taken while it started");
    }
  }

  /** Stops the server (SIGTERM: it commits its indexes), keeping them, as a server that goes away mid-run. */
  public synchronized void stop() {
    process.stop(true);
  }

  @Override
  public synchronized void close() {
    if (process != null) {
      process.stop(true);
    }
    ServerFiles.delete(folder);
  }

  // Ready once its admin port's health check answers 200.
  private boolean healthy() {
    return RealCouchDb.answers200("http://" + FreePort.LOOPBACK + ":" + adminPort + "/healthcheck");
  }

  /**
   * A Nouveau server and a CouchDB node that uses it, for a whole test class, as a field
   * {@code @RegisterExtension static final RealNouveau.PerClass}: started before the class's first test, closed after
   * its last; without them, each test that asks skips (or fails, in CI), with {@link #NOT_HERE}.
   */
  public static final class PerClass implements BeforeAllCallback, AfterAllCallback {

    private RealNouveau nouveau;
    private RealCouchDb.Node node;

    @Override
    public void beforeAll(ExtensionContext context) {
      Optional<Path> release = RealCouchDb.release(context.getRequiredTestClass());
      if (release.isEmpty()) {
        return;
      }
      if (!Files.isReadable(TARBALL)) {
        Prerequisites.sayMissing(context.getRequiredTestClass(), NOT_HERE);
        return;
      }
      nouveau = RealNouveau.start(RealCouchDb.unpacked(TARBALL, UNPACKED, "nouveau-dist"));
      node = RealCouchDb.node(release.get(), nouveau.couchIni());
    }

    @Override
    public void afterAll(ExtensionContext context) {
      if (node != null) {
        node.close();
      }
      if (nouveau != null) {
        nouveau.close();
      }
    }

    /** @return the CouchDB node; the test skips (or fails, in CI) where there is none */
    public RealCouchDb.Node node() {
      Prerequisites.require(node != null, NOT_HERE);
      return node;
    }

    /** @return the Nouveau server the node uses */
    public RealNouveau nouveau() {
      Prerequisites.require(nouveau != null, NOT_HERE);
      return nouveau;
    }

    /**
     * @param more the run's other -D properties
     * @return them with the node's URL and admin login
     */
    public Map<String, String> runProperties(Map<String, String> more) {
      return RealCouchDb.runProperties(node(), more);
    }
  }
}
