package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.process.ChildProcess;
import couchbench.process.Executables;
import couchbench.process.FreePort;
import couchbench.process.ProcessException;
import couchbench.process.Readiness;
import couchbench.process.ServerFiles;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ChildProcess and Readiness on small shell scripts standing in for servers. */
class ChildProcessIT {

  private static final Path HOME = Path.of("target", "child-process-it");
  private Path scratch;
  private Path log;

  @BeforeEach
  void freshScratch() throws Exception {
    scratch = Files.createDirectories(HOME).resolve("run-" + System.nanoTime());
    Files.createDirectory(scratch);
    log = scratch.resolve("server.log");
  }

  @AfterEach
  void deleteKeptFiles() {
    ServerFiles.delete(scratch);
  }

  private ChildProcess start(String script) {
    return ChildProcess.start("test-server", List.of("/bin/sh", "-c", script), scratch, log, scratch,
        Executables.systemPath());
  }

  @Test
  void shouldStopTheServerAndDeleteItsScratchFilesWhenClosed() throws Exception {
    ChildProcess child = start("exec sleep 30");
    assertTrue(child.isRunning());
    assertTrue(becomes(child.pid(), "sleep"), "pid() is the server's, not the wrapper's");
    child.close();
    assertFalse(child.isRunning());
    assertTrue(Net.endsWithin(child.pid(), Duration.ZERO));
    assertFalse(Files.exists(scratch), "scratch deleted");
  }

  /** The server's process may still be the shell that is about to exec it: wait for the exec. */
  private static boolean becomes(long pid, String command) throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      if (ProcessHandle.of(pid).flatMap(p -> p.info().command()).orElse("").endsWith(command)) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  @Test
  void shouldKeepTheLogOfAServerThatExitsBeforeAnswering() throws Exception {
    ChildProcess child = start("echo starting; echo 'Error: cannot open the data'; exit 3");
    int port = FreePort.pick();
    ProcessException e = assertThrows(ProcessException.class,
        () -> Readiness.await(child, () -> false, Duration.ofSeconds(5), port));
    assertEquals("test-server exited before answering on 127.0.0.1:" + port + " (Error: cannot open the data): see "
        + log, e.getMessage());
    assertTrue(Files.readString(log).contains("Error: cannot open the data"), "the log the message names is kept");
  }

  @Test
  void shouldGiveUpOnAServerThatDoesNotAnswerInTime() {
    ChildProcess child = start("exec sleep 30");
    ProcessException e = assertThrows(ProcessException.class,
        () -> Readiness.await(child, () -> false, Duration.ofSeconds(1), 1));
    assertTrue(e.getMessage().startsWith("test-server did not answer on 127.0.0.1:1 within 1 s: see "), e.getMessage());
    assertFalse(child.isRunning());
    assertTrue(Files.exists(log), "the log the message names is kept");
  }

  @Test
  void shouldReportAClashWhenTheServerExitsBecauseItsPortWasTaken() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      ChildProcess child = start("echo 'address already in use'; exit 1");
      assertFalse(Readiness.await(child, () -> false, Duration.ofSeconds(5), taken.getLocalPort()));
      assertFalse(Files.exists(scratch), "a clash leaves nothing behind: the caller retries on another port");
    }
  }
}
