package couchbench.process;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a freshly started local server to answer, and tells a lost race for its port from a real failure. */
public final class Readiness {

  private static final long POLL_MILLIS = 100;

  private Readiness() {}

  /**
   * Waits until answers says the server answers on its port. Returns false (stopping the server and deleting its
   * files) when it exited because another process took the port meanwhile: the caller tries another port. Throws
   * ProcessException (stopping it, keeping its log for the user) when it exits otherwise or does not answer in time.
   */
  public static boolean await(ChildProcess server, BooleanSupplier answers, Duration timeout, int port) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        // Asked before checking it runs: a reply from a server that then turns out dead must not count.
        boolean answered = answers.getAsBoolean();
        if (!server.isRunning()) {
          boolean clash = FreePort.isTaken(port);
          server.stop(!clash);
          if (clash) {
            return false;
          }
          throw new ProcessException(server.name() + " exited before answering on " + FreePort.LOOPBACK + ":" + port
              + " (" + ServerFiles.summary(server.logFile()) + "): see " + server.logFile());
        }
        if (answered) {
          return true;
        }
        if (System.nanoTime() > deadline) {
          server.stop(true);
          throw new ProcessException(server.name() + " did not answer on " + FreePort.LOOPBACK + ":" + port
              + " within " + timeout.toSeconds() + " s: see " + server.logFile());
        }
        Thread.sleep(POLL_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.stop(false);
      throw new ProcessException("interrupted while waiting for " + server.name() + " to answer on port " + port);
    }
  }
}
