package couchbench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** memcached's own counts, read over a plain socket: no couchbench code on the checking side. */
public final class MemcachedStats {

  private MemcachedStats() {}

  /**
   * Sends {@code stats} to a memcached on loopback.
   *
   * @param port its port on 127.0.0.1
   * @return every STAT line's name and value
   */
  public static Map<String, String> of(int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      socket.setSoTimeout(3000);
      socket.getOutputStream().write("stats\r\n".getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      StringBuilder reply = new StringBuilder();
      while (!reply.toString().endsWith("END\r\n")) {
        int b = in.read();
        if (b < 0) {
          break;
        }
        reply.append((char) b);
      }
      Map<String, String> stats = new HashMap<>();
      for (String line : reply.toString().split("\r\n")) {
        String[] parts = line.split(" ");
        if (parts.length == 3 && parts[0].equals("STAT")) {
          stats.put(parts[1], parts[2]);
        }
      }
      return stats;
    }
  }

  /**
   * Asks memcached for one key's value, and gives its length as its VALUE line says.
   *
   * @param port its port on 127.0.0.1
   * @param key the key
   * @return the value's bytes; -1 when memcached does not hold it
   */
  public static int valueLength(int port, String key) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      socket.setSoTimeout(3000);
      socket.getOutputStream().write(("get " + key + "\r\n").getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
        line.append((char) b);
      }
      String[] parts = line.toString().strip().split(" ");
      return parts[0].equals("VALUE") ? Integer.parseInt(parts[3]) : -1;
    }
  }

  /**
   * Asks memcached, in the meta protocol, how long a key has left to live.
   *
   * @param port its port on 127.0.0.1
   * @param key the key
   * @return its seconds left; -1 when it never expires, -2 when memcached does not hold it
   */
  public static long secondsLeft(int port, String key) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      socket.setSoTimeout(3000);
      socket.getOutputStream().write(("mg " + key + " t\r\n").getBytes(StandardCharsets.US_ASCII));
      String line = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
          .readLine();
      return line.startsWith("HD t") ? Long.parseLong(line.substring("HD t".length()).strip()) : -2;
    }
  }

  /**
   * Asks memcached which keys it holds, 100 to a {@code get}: for checking a key file against the server.
   *
   * @param port its port on 127.0.0.1
   * @param keys the keys
   * @return how many of them memcached holds (each VALUE line of the replies)
   */
  public static long held(int port, List<String> keys) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
      long held = 0;
      for (int from = 0; from < keys.size(); from += 100) {
        List<String> batch = keys.subList(from, Math.min(keys.size(), from + 100));
        out.write(("get " + String.join(" ", batch) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        for (String line = in.readLine(); !"END".equals(line); line = in.readLine()) {
          if (line == null) {
            throw new IOException("memcached closed the connection");
          }
          if (line.startsWith("VALUE ")) {
            held++;
            in.readLine(); // the value: md5 keys' values are random text, one line
          }
        }
      }
      return held;
    }
  }

  /**
   * One count, for polling a server that may be down.
   *
   * @param port its port on 127.0.0.1
   * @param name the stat, e.g. cmd_set
   * @return its value, 0 when the server does not answer
   */
  public static long count(int port, String name) {
    try {
      return Long.parseLong(of(port).getOrDefault(name, "0"));
    } catch (IOException e) {
      return 0;
    }
  }
}
