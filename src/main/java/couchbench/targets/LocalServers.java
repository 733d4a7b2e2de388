package couchbench.targets;

import couchbench.startup.AtExit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The servers that Targets started for this run, stopped as the JVM exits ({@link AtExit}): an orderly stop that also
 * deletes their data. (Their wrappers stop them anyway if the JVM dies without running hooks.) A run that resolves
 * a target twice finds the server started the first time instead of starting a second one.
 */
final class LocalServers {

  private static final Deque<AutoCloseable> STARTED = new ArrayDeque<>();
  private static boolean hooked;

  private LocalServers() {}

  /** Registers a server to stop when the JVM exits; returns it. */
  static synchronized <T extends AutoCloseable> T stopAtExit(T server) {
    if (!hooked) {
      AtExit.run(LocalServers::stopAll);
      hooked = true;
    }
    STARTED.push(server);
    return server;
  }

  /** @return a registered server of this kind, if one was started and not yet stopped */
  static synchronized <T extends AutoCloseable> Optional<T> find(Class<T> kind) {
    return STARTED.stream().filter(kind::isInstance).map(kind::cast).findFirst();
  }

  /** Puts a server restarted in the place of the one it replaces, to be stopped at exit instead of it. */
  static synchronized void replace(AutoCloseable stopped, AutoCloseable restarted) {
    STARTED.remove(stopped);
    STARTED.push(restarted);
  }

  /** Stops every registered server, the last started first. */
  static synchronized void stopAll() {
    while (!STARTED.isEmpty()) {
      try {
        STARTED.pop().close();
      } catch (Exception e) {
        // keep stopping the others; one that failed to stop is still stopped by its wrapper
      }
    }
  }
}
