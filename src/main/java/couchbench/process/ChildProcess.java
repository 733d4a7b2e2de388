package couchbench.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A local server that cannot outlive this JVM, however the JVM ends. The server runs under a small shell wrapper
 * whose stdin is a pipe from this JVM: the wrapper blocks reading it, and when it closes (close(), a normal exit,
 * Ctrl-C or kill -9 of the JVM alike, since the kernel closes the pipe) its EXIT trap stops the server and deletes
 * the server's scratch files (its data, its log). Only a "keep" line sent first keeps them, for a failed start
 * whose log the error message points to.
 */
public final class ChildProcess implements AutoCloseable {

  // $1 is the log file, $2 the scratch path to delete at the end, the rest the server's command.
  // The first line of stdout is the server's pid.
  private static final String WRAPPER = String.join("\n",
      "log=$1; scratch=$2; shift 2",
      "\"$@\" >>\"$log\" 2>&1 </dev/null &",
      "server=$!",
      "trap 'kill $server 2>/dev/null; wait $server; [ \"$keep\" = keep ] || rm -rf -- \"$scratch\"' EXIT",
      "trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM",
      "echo $server",
      "read -r keep");
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  private final String name;
  private final Process wrapper;
  private final long pid;
  private final Path logFile;
  private final Path scratch;
  private boolean closed;

  private ChildProcess(String name, Process wrapper, long pid, Path logFile, Path scratch) {
    this.name = name;
    this.wrapper = wrapper;
    this.pid = pid;
    this.logFile = logFile;
    this.scratch = scratch;
  }

  /**
   * Starts command in directory, its output appended to logFile, with PATH set to searchPath; scratch (a file or
   * a directory, holding logFile or not) is deleted when the server stops.
   */
  public static ChildProcess start(String name, List<String> command, Path directory, Path logFile, Path scratch,
      String searchPath) {
    List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", WRAPPER, name,
        logFile.toAbsolutePath().toString(), scratch.toAbsolutePath().toString()));
    argv.addAll(command);
    ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile())
        .redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
    builder.environment().put("PATH", searchPath);
    // The servers and npm have no use for the CouchDB password a user may keep in the environment.
    builder.environment().remove("COUCHDB_PASSWORD");
    try {
      Process wrapper = builder.start();
      String firstLine = new BufferedReader(
          new InputStreamReader(wrapper.getInputStream(), StandardCharsets.US_ASCII)).readLine();
      if (firstLine == null || !firstLine.trim().matches("\\d+")) {
        wrapper.destroyForcibly();
        throw new ProcessException("could not start " + name + ": see " + logFile);
      }
      return new ChildProcess(name, wrapper, Long.parseLong(firstLine.trim()), logFile, scratch);
    } catch (IOException e) {
      throw new ProcessException("could not start " + name + " through /bin/sh: " + e.getMessage(), e);
    }
  }

  /** @return the file the server's output goes to */
  public Path logFile() {
    return logFile;
  }

  /** @return the name given at start, e.g. "memcached", for messages */
  public String name() {
    return name;
  }

  /** @return the server's pid (not the wrapper's) */
  public long pid() {
    return pid;
  }

  /** @return whether the server process still runs */
  public boolean isRunning() {
    if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      return false;
    }
    // A server that exited stays a zombie until its wrapper stops, and Java may count a zombie as alive: ask /proc.
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException | RuntimeException e) {
      return true; // no /proc here: trust the process handle
    }
  }

  /** Stops the server, waits for it, and deletes its scratch files. */
  @Override
  public void close() {
    stop(false);
  }

  /**
   * Stops the server and waits for it. Closing stdin lets the wrapper stop it and delete its scratch files, unless
   * keepFiles; force is the fallback.
   */
  public synchronized void stop(boolean keepFiles) {
    if (closed) {
      return;
    }
    closed = true;
    try (OutputStream stdin = wrapper.getOutputStream()) {
      if (keepFiles) {
        stdin.write("keep\n".getBytes(StandardCharsets.US_ASCII));
      }
    } catch (IOException e) {
      // the wrapper is gone already: nothing reads the pipe, the wait below returns at once
    }
    try {
      if (!wrapper.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        forceStop(keepFiles);
      }
    } catch (InterruptedException e) {
      forceStop(keepFiles);
      Thread.currentThread().interrupt();
    }
    try {
      wrapper.getInputStream().close();
    } catch (IOException e) {
      // only the pid line was ever read from it
    }
  }

  // The server first, while the wrapper still holds it as its child: its pid cannot have been reused yet.
  private void forceStop(boolean keepFiles) {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    wrapper.destroyForcibly();
    if (!keepFiles) {
      ServerFiles.delete(scratch);
    }
  }
}
