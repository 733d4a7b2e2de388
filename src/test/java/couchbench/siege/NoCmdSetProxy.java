package couchbench.siege;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A memcache-compatible server whose stats lack cmd_set, as a proxy's or another store's may: a loopback proxy in front
 * of a real memcached that passes every byte through, except on a connection that starts with "stats", whose replies
 * it passes without their "STAT cmd_set" line.
 */
final class NoCmdSetProxy extends LoopbackProxy {

  /** @param upstreamPort memcached's port on 127.0.0.1 */
  NoCmdSetProxy(int upstreamPort) throws IOException {
    super(upstreamPort);
  }

  /** Reads the client's first line, then relays both ways; a stats connection's replies lose their cmd_set line. */
  @Override
  void serve(Socket client, Socket server) throws IOException {
    InputStream in = client.getInputStream();
    ByteArrayOutputStream first = new ByteArrayOutputStream();
    for (int b = in.read(); b != -1; b = in.read()) {
      first.write(b);
      if (b == '\n') {
        break;
      }
    }
    OutputStream toServer = server.getOutputStream();
    toServer.write(first.toByteArray());
    boolean stats = first.toString(StandardCharsets.US_ASCII).startsWith("stats");
    start(() -> relay(in, toServer));
    if (stats) {
      withoutCmdSet(server.getInputStream(), client.getOutputStream());
    } else {
      relay(server.getInputStream(), client.getOutputStream());
    }
  }

  private static void withoutCmdSet(InputStream from, OutputStream to) throws IOException {
    BufferedReader lines = new BufferedReader(new InputStreamReader(from, StandardCharsets.US_ASCII));
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      if (!line.startsWith("STAT cmd_set ")) {
        to.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        to.flush();
      }
    }
  }
}
