package couchbench.targets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.MemcachedStats;
import couchbench.process.FreePort;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Runs a command, the test suite, while stand-ins for a user's own servers listen on the default ports, and fails
 * unless their counters come out unchanged: memcached from the PATH on 127.0.0.1:21201 (cmd_set, cmd_get, curr_items)
 * and pouchdb-server, through couchbench's launcher, on 127.0.0.1:5984 (its databases, the doc_count and update_seq
 * of each, and doc_del_count where the server tells it). Each holds a little data first, as a user's server would.
 * A port that something else already holds gets no stand-in and is not read. The stand-ins stop when the command has
 * ended.
 *
 * <pre>java -cp TEST_CLASSPATH couchbench.targets.DefaultPortStandIns mvn -B verify</pre>
 *
 * Exit status: the command's when it failed, else 1 when a counter changed, else 0.
 */
public final class DefaultPortStandIns {

  private static final int COUCHDB_PORT = 5984;
  private static final int MEMCACHE_PORT = 21201;
  private static final String USER_DATABASE = "users_own_data";
  private static final int USER_ITEMS = 3;
  private static final ObjectMapper JSON = new ObjectMapper();

  private DefaultPortStandIns() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: DefaultPortStandIns COMMAND [ARGUMENT...], e.g. mvn -B verify");
      System.exit(64);
    }
    List<AutoCloseable> started = new ArrayList<>();
    int status;
    try {
      Optional<MemcachedServer> memcached =
          standIn(MEMCACHE_PORT, "memcached", () -> MemcachedServer.startOn(MEMCACHE_PORT), started);
      Optional<PouchDbServer> pouchdb =
          standIn(COUCHDB_PORT, "pouchdb-server", () -> PouchDbServer.startOn(COUCHDB_PORT), started);
      memcached.ifPresent(DefaultPortStandIns::seedMemcache);
      pouchdb.ifPresent(DefaultPortStandIns::seedCouchDb);
      Supplier<Map<String, String>> counters = () -> {
        Map<String, String> all = new TreeMap<>();
        memcached.ifPresent(server -> all.putAll(memcacheCounters(server)));
        pouchdb.ifPresent(server -> all.putAll(couchCounters(server)));
        return all;
      };
      String command = "`" + String.join(" ", args) + "`";
      Map<String, String> before = counters.get();
      say("counters before " + command + ": " + before);
      int exit = new ProcessBuilder(args).inheritIO().start().waitFor();
      Map<String, String> after = counters.get();
      List<String> changed = new ArrayList<>();
      before.forEach((name, value) -> {
        if (!value.equals(after.get(name))) {
          changed.add(name + " " + value + " -> " + after.get(name));
        }
      });
      after.keySet().stream().filter(name -> !before.containsKey(name))
          .forEach(name -> changed.add(name + " (new) " + after.get(name)));
      if (changed.isEmpty()) {
        say("counters unchanged after " + command + " (exit " + exit + "): " + after);
      } else {
        say("FAILED: " + command + " touched the servers on the default ports: " + String.join("; ", changed));
      }
      status = exit != 0 ? exit : changed.isEmpty() ? 0 : 1;
    } finally {
      for (AutoCloseable server : started) {
        server.close();
      }
    }
    System.exit(status);
  }

  /** Starts a stand-in on port, or says why there is none. */
  private static <S extends AutoCloseable> Optional<S> standIn(int port, String name, Supplier<Optional<S>> start,
      List<AutoCloseable> started) {
    Optional<S> server = start.get();
    server.ifPresentOrElse(started::add, () -> say(FreePort.LOOPBACK + ":" + port + " is held by a server this did"
        + " not start: no " + name + " stand-in there, and nothing there is read"));
    server.ifPresent(s -> say(name + " stand-in on " + FreePort.LOOPBACK + ":" + port));
    return server;
  }

  /** A user's items: USER_ITEMS sets. */
  private static void seedMemcache(MemcachedServer server) {
    for (int i = 0; i < USER_ITEMS; i++) {
      String value = "value " + i;
      String reply =
          memcache(server.port(), "set users_own_key_" + i + " 0 0 " + value.length() + "\r\n" + value + "\r\n");
      if (!reply.equals("STORED")) {
        throw new IllegalStateException("the memcached stand-in answered " + reply + " to a set");
      }
    }
  }

  /** A user's database with USER_ITEMS documents. */
  private static void seedCouchDb(PouchDbServer server) {
    String url = server.url();
    expect("201", Net.send("PUT", url + "/" + USER_DATABASE, null));
    for (int i = 0; i < USER_ITEMS; i++) {
      expect("201", Net.send("PUT", url + "/" + USER_DATABASE + "/doc" + i, "{\"n\":" + i + "}"));
    }
  }

  private static Map<String, String> memcacheCounters(MemcachedServer server) {
    try {
      Map<String, String> stats = MemcachedStats.of(server.port());
      Map<String, String> counters = new TreeMap<>();
      for (String name : List.of("cmd_set", "cmd_get", "curr_items")) {
        counters.put(server.address() + " " + name, stats.get(name));
      }
      return counters;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> couchCounters(PouchDbServer server) {
    String url = server.url();
    Map<String, String> counters = new TreeMap<>();
    JsonNode databases = json(Net.send("GET", url + "/_all_dbs", null));
    counters.put(url + " databases", databases.toString());
    for (JsonNode database : databases) {
      String name = database.asText();
      JsonNode info = json(Net.send("GET", url + "/" + URLEncoder.encode(name, StandardCharsets.UTF_8), null));
      for (String counter : List.of("doc_count", "doc_del_count", "update_seq")) {
        if (info.has(counter)) { // pouchdb-server has no doc_del_count
          counters.put(url + "/" + name + " " + counter, info.get(counter).toString());
        }
      }
    }
    return counters;
  }

  /** The body of a "200 {...}" reply from Net.send, parsed. */
  private static JsonNode json(String reply) {
    expect("200", reply);
    try {
      return JSON.readTree(reply.substring(4));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void expect(String status, String reply) {
    if (!reply.startsWith(status + " ")) {
      throw new IllegalStateException("the pouchdb-server stand-in answered " + reply);
    }
  }

  /** Sends one command to the memcached stand-in and returns the first line of its reply. */
  private static String memcache(int port, String command) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(FreePort.LOOPBACK, port), 2000);
      socket.setSoTimeout(3000);
      socket.getOutputStream().write(command.getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
        line.append((char) b);
      }
      return line.toString().strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void say(String line) {
    System.out.println("stand-ins: " + line);
  }
}
