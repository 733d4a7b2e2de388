package couchbench.bulkinsert;

import static java.nio.charset.StandardCharsets.US_ASCII;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.couchdb.DocBodies;
import couchbench.resources.CpuMeter;
import couchbench.targets.LocalServer;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The yardstick for BulkInsert's docs/s (a benchmark, not a test; see docs/benchmarks.md): the same
 * steps sent by a plain Java loop. For each batch size B and thread count T it creates a fresh
 * database, then T threads, each with its own keep-alive HTTP/1.1 connection, send ceil(N/(B*T))
 * {@code POST /db/_bulk_docs} requests of B empty documents one after the other, and it prints
 * {@code B,T,docs,seconds,docs/s}, timed like BulkInsert: first thread's start to last thread's end,
 * then the CPU seconds this JVM (user, system, JIT and GC threads apart) and the server process
 * used in the step, as BulkInsert's summary counts them. The client is the JDK's {@link HttpClient}
 * ({@code jdk}, the default) or a bare socket ({@code socket}): the least CPU a client can spend per
 * request, which matters on a small machine where client and server share the cores.
 *
 * <p>Usage: {@code BulkBaseline http://127.0.0.1:5985 1,64,1024 1,2 8192 [jdk|socket]} (base URL
 * without credentials, batch sizes, thread counts, documents per step, client). The environment
 * gives the login, {@code COUCHDB_USER} and {@code COUCHDB_PASSWORD}, sent with every request, and
 * the server's pid on this machine, {@code SERVER_PID}, whose CPU time is read (else n/a).
 */
public final class BulkBaseline {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Optional<String> LOGIN = Optional.ofNullable(System.getenv("COUCHDB_USER"))
      .filter(user -> !user.isEmpty())
      .map(user -> "Basic " + Base64.getEncoder().encodeToString(
          (user + ":" + System.getenv().getOrDefault("COUCHDB_PASSWORD", "")).getBytes(US_ASCII)));
  private static final CpuMeter CPU = CpuMeter.of(Optional.ofNullable(System.getenv("SERVER_PID"))
      .filter(pid -> !pid.isEmpty())
      .map(pid -> new LocalServer("server", Long.parseLong(pid), Optional.empty())));

  private BulkBaseline() {}

  public static void main(String[] args) throws Exception {
    String baseUrl = args[0];
    List<Integer> batchSizes = ints(args[1]);
    List<Integer> threadCounts = ints(args[2]);
    int docs = Integer.parseInt(args[3]);
    boolean socket = args.length > 4 && args[4].equals("socket");
    HttpClient admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    System.out.println("B,T,docs,seconds,docs/s,client CPU (s),client user (s),client system (s),client JIT (s),"
        + "client GC (s),server CPU (s)");
    // Same order as BulkInsertPlan (T outer, B inner), so both JVMs warm up along the same path.
    for (int threads : threadCounts) {
      for (int batchSize : batchSizes) {
        URI database = URI.create(baseUrl + "/couchbench_baseline_" + System.currentTimeMillis()
            + "_b" + batchSize + "_t" + threads);
        HttpResponse<String> created = admin.send(
            authorized(HttpRequest.newBuilder(database)).PUT(BodyPublishers.noBody()).build(), BodyHandlers.ofString());
        checked(created.statusCode(), created.body().getBytes(US_ASCII));
        try {
          step(URI.create(database + "/_bulk_docs"), batchSize, threads, docs, socket);
        } finally {
          admin.send(authorized(HttpRequest.newBuilder(database)).DELETE().build(), BodyHandlers.discarding());
        }
      }
    }
  }

  private static void step(URI bulkDocs, int batchSize, int threads, int docs, boolean socket)
      throws Exception {
    byte[] body = DocBodies.bulk(batchSize, 0);
    int requests = (docs + batchSize * threads - 1) / (batchSize * threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<long[]>> futures = new ArrayList<>();
    CpuMeter.Reading cpuAtStart = CPU.read();
    for (int t = 0; t < threads; t++) {
      futures.add(pool.submit(() -> {
        // Connecting is inside the clock, as it is for a Gatling virtual user.
        long start = System.nanoTime();
        long stored = 0;
        try (Sender sender = socket ? new SocketSender(bulkDocs) : new JdkSender(bulkDocs)) {
          for (int i = 0; i < requests; i++) {
            stored += acknowledged(sender.post(body));
          }
        }
        return new long[] {start, System.nanoTime(), stored};
      }));
    }
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    long stored = 0;
    for (Future<long[]> future : futures) {
      long[] thread = future.get();
      start = Math.min(start, thread[0]);
      end = Math.max(end, thread[1]);
      stored += thread[2];
    }
    CpuMeter.Reading cpu = CPU.read().since(cpuAtStart);
    pool.shutdown();
    double seconds = (end - start) / 1e9;
    System.out.printf(Locale.ROOT, "%d,%d,%d,%.4f,%.1f,%s,%s,%s,%s,%s,%s%n",
        batchSize, threads, stored, seconds, stored / seconds, cell(cpu.client()), cell(cpu.user()),
        cell(cpu.system()), cell(cpu.jit()), cell(cpu.gc()), cell(cpu.server()));
  }

  private static String cell(Optional<Double> seconds) {
    return seconds.map(s -> String.format(Locale.ROOT, "%.2f", s)).orElse("");
  }

  private static HttpRequest.Builder authorized(HttpRequest.Builder request) {
    LOGIN.ifPresent(login -> request.header("Authorization", login));
    return request;
  }

  // One thread's keep-alive connection: posts a body and returns the reply body.
  private interface Sender extends AutoCloseable {
    byte[] post(byte[] body) throws Exception;

    @Override
    default void close() throws IOException {}
  }

  private static final class JdkSender implements Sender {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI bulkDocs;

    JdkSender(URI bulkDocs) {
      this.bulkDocs = bulkDocs;
    }

    @Override
    public byte[] post(byte[] body) throws Exception {
      HttpRequest request = authorized(HttpRequest.newBuilder(bulkDocs))
          .header("Content-Type", "application/json")
          .header("Accept", "application/json")
          .POST(BodyPublishers.ofByteArray(body))
          .build();
      HttpResponse<byte[]> reply = client.send(request, BodyHandlers.ofByteArray());
      return checked(reply.statusCode(), reply.body());
    }
  }

  // HTTP/1.1 by hand, as far as CouchDB's replies need: a status line, headers, Content-Length.
  private static final class SocketSender implements Sender {
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final byte[] head;

    SocketSender(URI bulkDocs) throws IOException {
      socket = new Socket(bulkDocs.getHost(), bulkDocs.getPort());
      socket.setTcpNoDelay(true); // send each request at once, as Netty and the JDK client do
      out = new BufferedOutputStream(socket.getOutputStream());
      in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
      head = ("POST " + bulkDocs.getRawPath() + " HTTP/1.1\r\nHost: " + bulkDocs.getAuthority()
          + LOGIN.map(login -> "\r\nAuthorization: " + login).orElse("")
          + "\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ")
          .getBytes(US_ASCII);
    }

    @Override
    public byte[] post(byte[] body) throws IOException {
      out.write(head);
      out.write((body.length + "\r\n\r\n").getBytes(US_ASCII));
      out.write(body);
      out.flush();
      int status = Integer.parseInt(line(in).split(" ")[1]);
      int length = -1;
      for (String header = line(in); !header.isEmpty(); header = line(in)) {
        if (header.regionMatches(true, 0, "Content-Length:", 0, 15)) {
          length = Integer.parseInt(header.substring(15).trim());
        }
      }
      if (length < 0) {
        throw new IOException("reply without Content-Length, which this client needs");
      }
      byte[] reply = new byte[length];
      in.readFully(reply);
      return checked(status, reply);
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }

    private static String line(InputStream in) throws IOException {
      StringBuilder line = new StringBuilder();
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) {
          throw new EOFException("connection closed in the middle of a reply");
        }
        if (c != '\r') {
          line.append((char) c);
        }
      }
      return line.toString();
    }
  }

  // 202: CouchDB accepted the documents but has not yet written them to enough nodes; still acknowledged.
  private static byte[] checked(int status, byte[] reply) {
    if (status != 201 && status != 202) {
      throw new IllegalStateException("status " + status + ": " + new String(reply, US_ASCII));
    }
    return reply;
  }

  private static long acknowledged(byte[] reply) throws IOException {
    long ok = 0;
    for (JsonNode result : JSON.readTree(reply)) {
      ok += result.path("ok").asBoolean(false) ? 1 : 0;
    }
    return ok;
  }

  private static List<Integer> ints(String commaSeparated) {
    return Arrays.stream(commaSeparated.split(",")).map(String::trim).map(Integer::valueOf).toList();
  }
}
