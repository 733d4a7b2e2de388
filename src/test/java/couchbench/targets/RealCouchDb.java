package couchbench.targets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.Prerequisites;
import couchbench.process.ChildProcess;
import couchbench.process.Executables;
import couchbench.process.FreePort;
import couchbench.process.ProcessException;
import couchbench.process.Readiness;
import couchbench.process.ServerFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Apache CouchDB 3.5.0 for the tests of what pouchdb-server lacks or fakes (partitions, _active_tasks, _scheduler,
 * compaction, clusters, execution_stats): the release in ../shared/couchdb/ (or the unpacked one COUCHDB_HOME names),
 * unpacked once under target/couchdb-3.5.0, run as one node or a cluster of nodes on loopback, each with an admin,
 * its own ports and a folder of its own, deleted when it closes. A user's machine has none: {@link #release} then says
 * so in one line, for the test to skip (or fail, in CI: {@link Prerequisites}).
 */
public final class RealCouchDb {

  /** The admin every node is started with. */
  public static final String USER = "admin";

  /** The admin's password: a test's own, on loopback only. */
  public static final String PASSWORD = "couchbench-test-secret";

  static final Path TARBALL = Path.of("..", "shared", "couchdb", "apache-couchdb-3.5.0-debian12-amd64.tar.gz");
  private static final Path UNPACKED = Path.of("target", "couchdb-3.5.0");
  private static final Path NODES = Path.of("target", "couchdb-nodes");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  private RealCouchDb() {}

  /**
   * The release to run: COUCHDB_HOME's, else ../shared/couchdb/'s unpacked under target/ on first use. Where there is
   * neither, prints "TEST: skipped, ..." once, for the test to skip (or fail, in CI) with {@link #NOT_HERE} through
   * {@link Prerequisites#require}.
   *
   * @param test the test class that needs it, named in that line
   * @return the release's folder (holding bin/couchdb), if there is one
   */
  public static Optional<Path> release(Class<?> test) {
    String home = System.getenv("COUCHDB_HOME");
    if (home != null && Files.isExecutable(Path.of(home, "bin", "couchdb"))) {
      return Optional.of(Path.of(home).toAbsolutePath());
    }
    if (!Files.isReadable(TARBALL)) {
      Prerequisites.sayMissing(test, NOT_HERE);
      return Optional.empty();
    }
    return Optional.of(unpacked(TARBALL, UNPACKED, "couchdb"));
  }

  /** Why a test of real CouchDB skipped, with the fix. */
  public static final String NOT_HERE = "no Apache CouchDB 3.5 here (" + TARBALL + ", or COUCHDB_HOME naming an"
      + " unpacked release)";

  /**
   * Starts one node (single_node: it creates _users and _replicator itself) and waits until it answers.
   *
   * @param release the release's folder
   * @return the node
   */
  public static Node node(Path release) {
    return node(release, List.of());
  }

  /**
   * Starts one node, as {@link #node(Path)} does, with more of its configuration.
   *
   * @param release the release's folder
   * @param moreIni lines of local.ini after couchbench's, e.g. a [nouveau] section
   * @return the node
   */
  public static Node node(Path release, List<String> moreIni) {
    Node node = new Node(release, "cb" + UUID.randomUUID().toString().substring(0, 8), cookie(), true, moreIni);
    node.start();
    return node;
  }

  /**
   * Starts nodes that form one cluster, joined through the first as CouchDB's documentation says for nodes bound to
   * 127.0.0.1 (PUT /_node/_local/_nodes/NAME, then finish_cluster), and waits until every node lists all of them.
   *
   * @param release the release's folder
   * @param size how many nodes, e.g. 3
   * @return the cluster
   */
  public static Cluster cluster(Path release, int size) {
    String cookie = cookie();
    String prefix = "cb" + UUID.randomUUID().toString().substring(0, 8) + "n";
    List<Node> nodes = new ArrayList<>();
    try {
      for (int i = 1; i <= size; i++) {
        Node node = new Node(release, prefix + i, cookie, false, List.of());
        nodes.add(node);
        node.start();
      }
      Node first = nodes.get(0);
      for (Node other : nodes.subList(1, size)) {
        first.request("PUT", "/_node/_local/_nodes/" + other.erlangName(), "{}");
      }
      first.request("POST", "/_cluster_setup", "{\"action\":\"finish_cluster\"}");
      for (Node node : nodes) {
        node.awaitMembers(size);
      }
      return new Cluster(List.copyOf(nodes));
    } catch (RuntimeException e) {
      nodes.forEach(Node::close);
      throw e;
    }
  }

  /** Several nodes of one cluster. */
  public record Cluster(List<Node> nodes) implements AutoCloseable {

    /** @return every node's URL, comma-separated, as -Dcouchdb.url takes a cluster */
    public String urls() {
      return nodes.stream().map(Node::url).collect(Collectors.joining(","));
    }

    @Override
    public void close() {
      nodes.forEach(Node::close);
    }
  }

  /**
   * One node for a whole test class, as a field {@code @RegisterExtension static final RealCouchDb.NodePerClass}:
   * started before the class's first test, closed after its last; without a release, each test that asks for it
   * skips (or fails, in CI), with {@link #NOT_HERE}.
   */
  public static final class NodePerClass implements BeforeAllCallback, AfterAllCallback {

    private Node node;

    @Override
    public void beforeAll(ExtensionContext context) {
      release(context.getRequiredTestClass()).ifPresent(release -> node = RealCouchDb.node(release));
    }

    @Override
    public void afterAll(ExtensionContext context) {
      if (node != null) {
        node.close();
      }
    }

    /** @return the node; the test skips (or fails, in CI) where there is none */
    public Node node() {
      Prerequisites.require(node != null, NOT_HERE);
      return node;
    }

    /**
     * @param more the run's other -D properties
     * @return them with the node's URL and admin login
     */
    public Map<String, String> runProperties(Map<String, String> more) {
      return RealCouchDb.runProperties(node(), more);
    }
  }

  /**
   * @param node a node
   * @param more a run's other -D properties
   * @return them with the node's URL and admin login
   */
  static Map<String, String> runProperties(Node node, Map<String, String> more) {
    Map<String, String> properties = new HashMap<>(Map.of("couchdb.url", node.url(), "couchdb.user", USER,
        "couchdb.password", PASSWORD));
    properties.putAll(more);
    return properties;
  }

  /** One CouchDB node on loopback: its HTTP port and Erlang distribution port picked free when it first starts. */
  public static final class Node implements AutoCloseable {

    private final Path release;
    private final String name;
    private final String cookie;
    private final boolean single;
    private final List<String> moreIni;
    private final Path folder;
    private int port;
    private int distributionPort;
    private ChildProcess process;

    private Node(Path release, String name, String cookie, boolean single, List<String> moreIni) {
      this.release = release;
      this.name = name;
      this.cookie = cookie;
      this.single = single;
      this.moreIni = moreIni;
      this.folder = NODES.resolve(name).toAbsolutePath();
    }

    /** @return http://127.0.0.1:PORT, without a trailing slash and without the login */
    public String url() {
      return "http://" + FreePort.LOOPBACK + ":" + port;
    }

    /** @return its Erlang node name, e.g. cb1a2b3c4dn1@127.0.0.1, as _membership lists it */
    public String erlangName() {
      return name + "@" + FreePort.LOOPBACK;
    }

    /** @return its folder: its data, configuration and log */
    public Path folder() {
      return folder;
    }

    /** @return the beam process's pid, e.g. to read its CPU time */
    public long pid() {
      return process.pid();
    }

    /** Starts the node (again, after {@link #stop}, on the same ports with the same data) and waits until it answers. */
    public synchronized void start() {
      if (process != null && process.isRunning()) {
        return;
      }
      if (port == 0) {
        port = FreePort.pick();
        distributionPort = FreePort.pick();
        writeConfiguration();
      }
      // env passes the configuration and execs bin/couchdb, which execs the Erlang VM: the pid is the server's.
      process = ChildProcess.start("couchdb " + name, List.of("env", "COUCHDB_INI_FILES=" + release.resolve(
              "etc/default.ini") + " " + folder.resolve("local.ini"), "COUCHDB_ARGS_FILE=" + folder.resolve("vm.args"),
          release.resolve("bin/couchdb").toString()), release, folder.resolve("couchdb.log"), folder,
          Executables.systemPath());
      if (!Readiness.await(process, this::answers, START_TIMEOUT, port)) {
        throw new ProcessException("couchdb " + name + ": port " + port + " was taken while it started");
      }
      if (single) {
        awaitSystemDatabases();
      }
    }

    /** Stops the node, keeping its data, as a server that goes away mid-run; {@link #start} brings it back. */
    public synchronized void stop() {
      process.stop(true);
    }

    /** Stops the node and deletes its folder. */
    @Override
    public synchronized void close() {
      if (process != null) {
        process.stop(true);
      }
      ServerFiles.delete(folder);
    }

    /**
     * Sends a request as the admin and returns the reply's body.
     *
     * @param method e.g. PUT
     * @param path e.g. /db
     * @param body JSON, or null for none
     * @return the reply's body
     * @throws IllegalStateException when the reply is not a 2xx
     */
    public String request(String method, String path, String body) {
      try {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(30))
            .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD)
                .getBytes(StandardCharsets.UTF_8)))
            .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
          request.header("Content-Type", "application/json");
        }
        HttpResponse<String> reply = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() / 100 != 2) {
          throw new IllegalStateException(method + " " + path + " on " + name + ": " + reply.statusCode() + " "
              + reply.body());
        }
        return reply.body();
      } catch (IOException e) {
        throw new UncheckedIOException(method + " " + path + " on " + name, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    private boolean answers() {
      return answers200(url() + "/_up");
    }

    // A single node creates _users and _replicator just after it first answers.
    private void awaitSystemDatabases() {
      long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
      while (true) {
        try {
          request("GET", "/_users", null);
          request("GET", "/_replicator", null);
          return;
        } catch (RuntimeException e) {
          if (System.nanoTime() > deadline) {
            throw new ProcessException("couchdb " + name + " created no _users and _replicator within "
                + START_TIMEOUT.toSeconds() + " s: see " + folder.resolve("couchdb.log"));
          }
        }
        sleep(100);
      }
    }

    private void awaitMembers(int size) {
      long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
      while (true) {
        try {
          JsonNode membership = JSON.readTree(request("GET", "/_membership", null));
          if (membership.path("cluster_nodes").size() == size && membership.path("all_nodes").size() == size) {
            return;
          }
        } catch (IOException | RuntimeException e) {
          // not ready yet
        }
        if (System.nanoTime() > deadline) {
          throw new ProcessException("couchdb " + name + " does not list " + size + " nodes in _membership within "
              + START_TIMEOUT.toSeconds() + " s: see " + folder.resolve("couchdb.log"));
        }
        sleep(200);
      }
    }

    // One ini for the node, read after the release's default.ini; the plain password is hashed by CouchDB at start.
    private void writeConfiguration() {
      try {
        Files.createDirectories(folder.resolve("data"));
        List<String> ini = new ArrayList<>(List.of(
            "[couchdb]",
            single ? "single_node = true" : "",
            "js_engine = quickjs",
            "database_dir = " + folder.resolve("data"),
            "view_index_dir = " + folder.resolve("data"),
            "uuid = " + cookie,
            "[cluster]",
            single ? "n = 1" : "",
            "[chttpd]",
            "bind_address = " + FreePort.LOOPBACK,
            "port = " + port,
            "[chttpd_auth]",
            "secret = " + cookie,
            "[admins]",
            USER + " = " + PASSWORD,
            "[log]",
            "level = warning"));
        ini.addAll(moreIni);
        ini.add("");
        Files.writeString(folder.resolve("local.ini"), String.join("\n", ini));
        Files.writeString(folder.resolve("vm.args"), String.join("\n",
            "-name " + erlangName(),
            "-setcookie " + cookie,
            "-kernel inet_dist_use_interface {127,0,0,1}",
            "-kernel inet_dist_listen_min " + distributionPort + " inet_dist_listen_max " + distributionPort,
            "-kernel error_logger silent",
            "-sasl sasl_error_logger false",
            "-kernel prevent_overlapping_partitions false",
            "+Bd -noinput",
            "-os_mon start_cpu_sup false",
            "-os_mon start_memsup false",
            ""));
      } catch (IOException e) {
        throw new UncheckedIOException(folder.toString(), e);
      }
    }
  }

  /**
   * A tarball of ../shared/couchdb/, unpacked under target/ once; a file lock keeps two JVMs from unpacking at once.
   *
   * @param tarball the tarball
   * @param into the folder it is unpacked into
   * @param top the folder the tarball holds
   * @return that folder, unpacked
   */
  static synchronized Path unpacked(Path tarball, Path into, String top) {
    Path unpacked = into.resolve(top).toAbsolutePath();
    try {
      Files.createDirectories(into);
      try (FileChannel channel = FileChannel.open(into.resolve(".unpack.lock"), StandardOpenOption.CREATE,
              StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        Path done = into.resolve(".unpacked");
        if (!Files.exists(done)) {
          ServerFiles.delete(unpacked);
          Process tar = new ProcessBuilder("tar", "xzf", tarball.toAbsolutePath().toString(), "-C",
              into.toAbsolutePath().toString()).redirectErrorStream(true).start();
          String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          if (tar.waitFor() != 0) {
            throw new ProcessException("unpacking " + tarball + ": " + output);
          }
          Files.createFile(done);
        }
      }
      return unpacked;
    } catch (IOException e) {
      throw new UncheckedIOException("unpacking " + tarball, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * @param url a readiness URL, e.g. a node's /_up
   * @return whether a GET of it, without a User-Agent, answers 200 within 2 s
   */
  static boolean answers200(String url) {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static String cookie() {
    return UUID.randomUUID().toString().replace("-", "");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
