package couchbench.targets;

import couchbench.process.ChildProcess;
import couchbench.process.Executables;
import couchbench.process.FreePort;
import couchbench.process.Readiness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A memcached child process on 127.0.0.1 with 256 MB of memory, or -Dmemcache.memory's: the local memcache target. */
public final class MemcachedServer implements AutoCloseable {

  static final Path HOME = Path.of("target", "memcached");
  static final String NEEDS_MEMCACHED = "couchbench needs memcached on the PATH to start a local memcache server:"
      + " install it (apt-get install memcached) or point at your servers with -Dmemcache.servers=host:21201";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
  /** memcached's -m for the local server unless -Dmemcache.memory says otherwise. */
  public static final int DEFAULT_MEMORY_MB = 256;

  private final ChildProcess process;
  private final int port;
  private final int plainPort;
  private final String version;
  private final int memoryMb;

  private MemcachedServer(ChildProcess process, int port, int plainPort, String version, int memoryMb) {
    this.process = process;
    this.port = port;
    this.plainPort = plainPort;
    this.version = version;
    this.memoryMb = memoryMb;
  }

  /**
   * Starts memcached from the PATH on a free port and waits until it answers "version".
   *
   * @return the running server
   * @throws TargetException when memcached is not on the PATH or does not answer
   */
  public static MemcachedServer start() {
    return start(Executables.systemPath(), DEFAULT_MEMORY_MB);
  }

  /**
   * Same, finding memcached on searchPath, with the memory given: a cache smaller than the keys, for its evictions.
   *
   * @param memoryMb its item memory (memcached's -m), in MB
   */
  public static MemcachedServer start(String searchPath, int memoryMb) {
    Path memcached = binary(searchPath);
    return FreePort.withFreePort(port -> attempt(memcached, port, searchPath, List.of(), port, memoryMb));
  }

  /**
   * Starts memcached with TLS (-Z) on a free port, as a user's TLS memcached, and a plain text listener beside it for
   * the tests' own look at its stats; what couchbench starts for a run never speaks TLS.
   *
   * @param certificate the server's certificate chain, PEM
   * @param key its private key, PEM
   * @return the running server: TLS on {@link #port()}, plain text on {@link #plainPort()}
   * @throws TargetException when memcached is not on the PATH or does not answer
   */
  public static MemcachedServer startWithTls(Path certificate, Path key) {
    String searchPath = Executables.systemPath();
    Path memcached = binary(searchPath);
    return FreePort.withFreePort(port -> attempt(memcached, port, searchPath, List.of("-Z", "-o",
        "ssl_chain_cert=" + certificate.toAbsolutePath() + ",ssl_key=" + key.toAbsolutePath(), "-l",
        FreePort.LOOPBACK + ":" + port + ",notls:" + FreePort.LOOPBACK + ":" + (port + 1)), port + 1,
        DEFAULT_MEMORY_MB));
  }

  /**
   * Same on one given port, for the tests of the default port 21201.
   *
   * @return the running server, or empty when another process listens on that port
   * @throws TargetException as {@link #start()}
   */
  static Optional<MemcachedServer> startOn(int port) {
    return startOn(port, DEFAULT_MEMORY_MB);
  }

  private static Optional<MemcachedServer> startOn(int port, int memoryMb) {
    // Looked at first: whatever answers there would pass for the new server while it is still starting.
    if (FreePort.isTaken(port)) {
      return Optional.empty();
    }
    String searchPath = Executables.systemPath();
    return attempt(binary(searchPath), port, searchPath, List.of(), port, memoryMb);
  }

  /** memcached on searchPath, and the folder for its logs. */
  private static Path binary(String searchPath) {
    Path memcached = Executables.find("memcached", searchPath).orElseThrow(() -> new TargetException(NEEDS_MEMCACHED));
    try {
      Files.createDirectories(HOME);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return memcached;
  }

  /**
   * @param options more options, e.g. TLS's; a "-l" among them replaces the loopback listener
   * @param plainPort the port it speaks plain text on, asked whether it is ready
   * @param memoryMb its item memory, memcached's -m
   */
  private static Optional<MemcachedServer> attempt(Path memcached, int port, String searchPath, List<String> options,
      int plainPort, int memoryMb) {
    // -U 0: no UDP port, nothing listens beyond the TCP ports asked for.
    List<String> command = new ArrayList<>(List.of(memcached.toString(), "-p", String.valueOf(port), "-m",
        String.valueOf(memoryMb),
        "-U", "0"));
    if (!options.contains("-l")) {
      command.addAll(List.of("-l", FreePort.LOOPBACK));
    }
    command.addAll(options);
    if (Executables.runningAsRoot()) {
      command.addAll(List.of("-u", "root")); // memcached refuses to run as root unless told so
    }
    Path logFile = HOME.resolve("memcached-" + port + ".log");
    ChildProcess process = ChildProcess.start("memcached", command, HOME, logFile, logFile, searchPath);
    String address = FreePort.LOOPBACK + ":" + plainPort;
    if (!Readiness.await(process, () -> MemcacheProbe.probe(address).answers(), START_TIMEOUT, port)) {
      return Optional.empty();
    }
    String version = MemcacheProbe.probe(address).detail().replaceFirst("^VERSION ", "");
    return Optional.of(new MemcachedServer(process, port, plainPort, version, memoryMb));
  }

  /** @return "127.0.0.1:PORT" */
  public String address() {
    return FreePort.LOOPBACK + ":" + port;
  }

  /** @return the port it listens on, on 127.0.0.1 */
  public int port() {
    return port;
  }

  /** @return the port it speaks plain text on: {@link #port()}, or the one beside it of {@link #startWithTls} */
  public int plainPort() {
    return plainPort;
  }

  /** @return the pid of the memcached process, e.g. to measure its CPU time */
  public long pid() {
    return process.pid();
  }

  /** @return its pid, for resource figures; it keeps no data on disk */
  public LocalServer local() {
    return new LocalServer("memcached", pid(), Optional.empty());
  }

  /** @return its item memory in MB (memcached's -m) */
  int memoryMb() {
    return memoryMb;
  }

  /** @return the version memcached reports, e.g. "1.6.18" */
  String version() {
    return version;
  }

  /**
   * Stops memcached and starts a new one on the same port (empty, as memcached always starts): for
   * tests of a target that goes away in the middle of a run.
   *
   * @return the restarted server, to close instead of this one
   * @throws TargetException when it does not answer again
   */
  public MemcachedServer restart() {
    close();
    return startOn(port, memoryMb)
        .orElseThrow(() -> new TargetException("memcached did not start again on port " + port));
  }

  /** Stops memcached, waits until it has exited, and deletes its log. */
  @Override
  public void close() {
    process.close();
  }
}
