package couchbench.siege;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A memcache server that answers every set twice, as MemcacheDB does for a noreply it ignores: a loopback proxy in
 * front of a real memcached that passes every byte through, but writes each STORED line twice, in one write.
 */
final class SetAnsweredTwiceProxy extends LoopbackProxy {

  private static final byte[] STORED = "STORED\r\n".getBytes(StandardCharsets.US_ASCII);

  /** @param upstreamPort memcached's port on 127.0.0.1 */
  SetAnsweredTwiceProxy(int upstreamPort) throws IOException {
    super(upstreamPort);
  }

  @Override
  void serve(Socket client, Socket server) throws IOException {
    InputStream requests = client.getInputStream();
    OutputStream toServer = server.getOutputStream();
    start(() -> relay(requests, toServer));
    storedTwice(server, client);
  }

  /** Passes the server's replies line by line, each STORED twice; flushes when the server has sent no more. */
  private static void storedTwice(Socket server, Socket client) throws IOException {
    try (InputStream in = new BufferedInputStream(server.getInputStream());
        OutputStream out = new BufferedOutputStream(client.getOutputStream())) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      for (int b = in.read(); b != -1; b = in.read()) {
        line.write(b);
        if (b != '\n') {
          continue;
        }
        byte[] bytes = line.toByteArray();
        out.write(bytes);
        if (Arrays.equals(bytes, STORED)) {
          out.write(bytes);
        }
        line.reset();
        if (in.available() == 0) {
          out.flush();
        }
      }
    }
  }
}
