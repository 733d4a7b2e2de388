package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MemcachedServerIT {

  @Test
  void shouldStoreAndReturnValuesAndStopWhenClosed() throws Exception {
    MemcachedServer server = MemcachedServer.start();
    long pid = server.pid();
    try {
      assertEquals("127.0.0.1:" + server.port(), server.address());
      assertEquals("STORED\r\n", Net.memcache(server.port(), "set k1 0 0 5\r\nhello\r\n", "\r\n"));
      assertEquals("VALUE k1 0 5\r\nhello\r\nEND\r\n", Net.memcache(server.port(), "get k1\r\n", "END\r\n"));
      ProcessHandle.Info info = ProcessHandle.of(pid).orElseThrow().info();
      assertTrue(info.command().orElse("").endsWith("memcached"), "pid() is memcached, not its wrapper");
      String arguments = String.join(" ", info.arguments().orElse(new String[0]));
      assertTrue(arguments.contains("-l 127.0.0.1") && arguments.contains("-m 256"), arguments);
    } finally {
      server.close();
    }
    assertFalse(Net.listens(server.port()), "the port no longer answers");
    assertTrue(Net.endsWithin(pid, Duration.ZERO), "memcached is gone when close() returns");
    assertFalse(Files.exists(MemcachedServer.HOME.resolve("memcached-" + server.port() + ".log")));
  }

  @Test
  void shouldNotOutliveAJvmKilledWithSignal9() throws Exception {
    assertServerEndsWithJvm("direct", Process::destroyForcibly);
  }

  @Test
  void shouldNotOutliveAJvmStoppedWithSigterm() throws Exception {
    assertServerEndsWithJvm("targets", Process::destroy);
  }

  /** Starts a child JVM that starts memcached, stops that JVM, and checks memcached ends with it. */
  private static void assertServerEndsWithJvm(String mode, java.util.function.Consumer<Process> stop) throws Exception {
    Process jvm = ChildJvm.start(Map.of(), ServerHolderMain.class, mode);
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("pid ")) {
        // skip the couchbench: lines printed while starting
      }
      assertTrue(line != null, "the child JVM printed the server's pid");
      String[] parts = line.split(" ");
      long pid = Long.parseLong(parts[1]);
      int port = Integer.parseInt(parts[2]);
      assertTrue(Net.listens(port));
      stop.accept(jvm);
      assertTrue(jvm.waitFor(10, TimeUnit.SECONDS), "the child JVM ends");
      assertTrue(Net.endsWithin(pid, Duration.ofSeconds(5)), "memcached " + pid + " ends with its JVM");
      assertFalse(Net.listens(port));
      assertTrue(Net.deletedWithin(MemcachedServer.HOME.resolve("memcached-" + port + ".log"), Duration.ofSeconds(5)),
          "its log is deleted");
    } finally {
      jvm.destroyForcibly();
    }
  }
}
