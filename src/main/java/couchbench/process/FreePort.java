package couchbench.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Optional;
import java.util.function.IntFunction;

/** Free ports on 127.0.0.1 for local servers, which never listen anywhere else. */
public final class FreePort {

  public static final String LOOPBACK = "127.0.0.1";
  private static final int ATTEMPTS = 3;

  private FreePort() {}

  /**
   * Runs attempt on a port that was free a moment ago. Another process may take it before the server binds it:
   * attempt then returns empty, and gets another port.
   */
  public static <T> T withFreePort(IntFunction<Optional<T>> attempt) {
    for (int i = 0; i < ATTEMPTS; i++) {
      Optional<T> result = attempt.apply(pick());
      if (result.isPresent()) {
        return result.get();
      }
    }
    throw new ProcessException("could not start a local server: another program took each of " + ATTEMPTS
        + " free ports on " + LOOPBACK + " first");
  }

  /** @return a port that nothing listened on when asked */
  public static int pick() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on " + LOOPBACK, e);
    }
  }

  /** @return whether something accepts connections on this loopback port */
  public static boolean isTaken(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(LOOPBACK, port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
