package couchbench.siege;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * A memcache server that ignores exptime, as MemcacheDB 1.2 does: a loopback proxy in front of a real memcached that
 * rewrites each text storage command's exptime to 0 (never) and passes every other byte through as it is.
 */
final class NoExpiryProxy extends LoopbackProxy {

  private static final Set<String> STORAGE = Set.of("set", "add", "replace", "append", "prepend", "cas");

  /** @param upstreamPort memcached's port on 127.0.0.1 */
  NoExpiryProxy(int upstreamPort) throws IOException {
    super(upstreamPort);
  }

  @Override
  void serve(Socket client, Socket server) throws IOException {
    InputStream replies = server.getInputStream();
    OutputStream toClient = client.getOutputStream();
    start(() -> relay(replies, toClient));
    InputStream in = client.getInputStream();
    OutputStream out = server.getOutputStream();
    for (String line = readLine(in); line != null; line = readLine(in)) {
      // <command> <key> <flags> <exptime> <bytes> [...]: the data block, bytes and CRLF, follows as it is.
      String[] words = line.split(" ");
      boolean storage = STORAGE.contains(words[0]) && words.length >= 5;
      if (storage) {
        words[3] = "0";
      }
      out.write((String.join(" ", words) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      if (storage) {
        out.write(in.readNBytes(Integer.parseInt(words[4]) + 2));
      }
      out.flush();
    }
    out.close();
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != -1; b = in.read()) {
      if (b == '\n') {
        return line.toString(StandardCharsets.US_ASCII).stripTrailing();
      }
      line.write(b);
    }
    return null;
  }
}
