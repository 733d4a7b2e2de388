package couchbench.memcache;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * Benchmark baseline, not a test: the least a pipelining memcache client can do. Each of C
 * connections, on a thread of its own, writes P requests in one write, then reads P replies, until
 * the time is up. Gets read keys it set first. Prints {@code result,<ops/s>,<p99 us>}; a request's
 * time runs from its batch's write to its own reply. Used by bench/memcache-vs-memaslap.sh.
 *
 * <p>{@code java -cp ... couchbench.memcache.PipelinedBaseline 127.0.0.1:11211 get 16 16 10 100}
 */
public final class PipelinedBaseline {

  private static final int KEYS_PER_CONNECTION = 1000;

  private PipelinedBaseline() {}

  public static void main(String[] args) throws Exception {
    String[] hostPort = args[0].split(":");
    InetSocketAddress server = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
    if (!server.getAddress().isLoopbackAddress()) {
      throw new IllegalArgumentException("load goes to this machine only: " + args[0]);
    }
    boolean get = args[1].equals("get");
    int connections = Integer.parseInt(args[2]);
    int depth = Integer.parseInt(args[3]);
    long nanos = Long.parseLong(args[4]) * 1_000_000_000L;
    byte[] value = "x".repeat(Integer.parseInt(args[5])).getBytes(StandardCharsets.US_ASCII);
    ConcurrentHistogram latencies = new ConcurrentHistogram(3_600_000_000_000L, 3);
    AtomicLong done = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    long deadline = System.nanoTime() + nanos;
    for (int c = 0; c < connections; c++) {
      int connection = c;
      Thread thread = new Thread(() -> {
        try (Socket socket = new Socket()) {
          socket.setTcpNoDelay(true);
          socket.connect(server);
          OutputStream out = socket.getOutputStream();
          InputStream in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
          for (int i = 0; i < KEYS_PER_CONNECTION; i += depth) { // the keys that gets read
            exchange(out, in, batch(false, connection, i, depth, value), false, depth, null);
          }
          int next = 0;
          while (System.nanoTime() < deadline) {
            exchange(out, in, batch(get, connection, next, depth, value), get, depth, latencies);
            next = (next + depth) % KEYS_PER_CONNECTION;
            done.addAndGet(depth);
          }
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      });
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    double seconds = nanos / 1e9;
    System.out.printf("result,%.0f,%.0f%n", done.get() / seconds, latencies.getValueAtPercentile(99) / 1000.0);
  }

  private static byte[] batch(boolean get, int connection, int first, int depth, byte[] value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < depth; i++) {
      String key = "pipelined:" + connection + ":" + ((first + i) % KEYS_PER_CONNECTION);
      if (get) {
        bytes.write(("get " + key + "\r\n").getBytes(StandardCharsets.US_ASCII));
      } else {
        bytes.write(("set " + key + " 0 0 " + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        bytes.write(value);
        bytes.write('\r');
        bytes.write('\n');
      }
    }
    return bytes.toByteArray();
  }

  private static void exchange(OutputStream out, InputStream in, byte[] batch, boolean get, int depth,
      ConcurrentHistogram latencies) throws IOException {
    long written = System.nanoTime();
    out.write(batch);
    out.flush();
    for (int i = 0; i < depth; i++) {
      String line = line(in);
      if (get) {
        if (!line.startsWith("VALUE ")) {
          throw new IOException("expected VALUE, got " + line);
        }
        int length = Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1));
        in.skipNBytes(length + 2L);
        if (!line(in).equals("END")) {
          throw new IOException("expected END");
        }
      } else if (!line.equals("STORED")) {
        throw new IOException("expected STORED, got " + line);
      }
      if (latencies != null) {
        latencies.recordValue(Math.max(1, System.nanoTime() - written));
      }
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(64);
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed");
      }
      line.write(b);
    }
    byte[] bytes = line.toByteArray();
    return new String(Arrays.copyOf(bytes, Math.max(0, bytes.length - 1)), StandardCharsets.US_ASCII);
  }
}
