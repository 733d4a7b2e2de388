package couchbench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CPU meter against this JVM's own counters, and the lookups it rests on against made-up /proc files. */
class CpuMeterTest {

  private static final long SELF = ProcessHandle.current().pid();

  @Test
  void shouldCountTheClientsCpuTimeAsItIsSpentAndSplitItIntoItsParts() {
    CpuMeter meter = CpuMeter.of(Optional.of(new LocalServer("self", SELF, Optional.empty())));
    CpuMeter.Reading before = meter.read();
    long sum = 0;
    // Spins until this thread has had 0.3 s of CPU, however busy the machine (wall time would give it less).
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (long end = threads.getCurrentThreadCpuTime() + 300_000_000L; threads.getCurrentThreadCpuTime() < end; ) {
      sum += Long.numberOfTrailingZeros(sum + System.nanoTime());
    }
    CpuMeter.Reading used = meter.read().since(before);

    double client = used.client().orElseThrow();
    assertTrue(client >= 0.2 && client < 5, "about 0.3 s of CPU, found " + client + " (" + sum + ")");
    // Each figure is read from /proc in clock ticks (10 ms), one after the other, while this JVM's other threads (its
    // JIT, other tests' work) go on: a reading's figures may stand some ticks apart (0.39 against 0.42 once).
    assertEquals(client, used.user().orElseThrow() + used.system().orElseThrow(), 0.05, used.toString());
    assertTrue(used.jit().orElseThrow() >= 0 && used.gc().orElseThrow() >= 0, used.toString());
    assertTrue(used.jit().get() + used.gc().get() <= client + 0.02, "parts of the whole: " + used);
    assertEquals(client, used.server().orElseThrow(), 0.05, "the server read here is this JVM too");
  }

  @Test
  void shouldLeaveTheServerNotAvailableWithoutOne() {
    CpuMeter meter = CpuMeter.of(Optional.empty());
    CpuMeter.Reading used = meter.read().since(meter.read());

    assertEquals(Optional.empty(), used.server());
    assertTrue(used.client().isPresent());
  }

  @Test
  void shouldKnowHotSpotsCompilerAndCollectorThreadsByName() {
    assertEquals(CpuMeter.Kind.JIT, CpuMeter.kind("C2 CompilerThre"));
    assertEquals(CpuMeter.Kind.JIT, CpuMeter.kind("C1 CompilerThre"));
    assertEquals(CpuMeter.Kind.GC, CpuMeter.kind("GC Thread#1"));
    assertEquals(CpuMeter.Kind.GC, CpuMeter.kind("G1 Refine#0"));
    assertEquals(CpuMeter.Kind.GC, CpuMeter.kind("VM Thread"));
    assertEquals(CpuMeter.Kind.OTHER, CpuMeter.kind("gatling-1-2"));
    assertEquals(CpuMeter.Kind.OTHER, CpuMeter.kind("VM Periodic Tas"));
  }

  @Test
  void shouldReadUserAndSystemTicksAfterANameWithSpacesAndParentheses() {
    String line = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 3 0 99 0 0";

    ProcStat.Times times = ProcStat.parse(line, 100).orElseThrow();

    assertEquals("a (b) c", times.name());
    assertEquals(2.5, times.userSeconds(), 1e-9);
    assertEquals(0.75, times.systemSeconds(), 1e-9);
    assertEquals(Optional.empty(), ProcStat.parse("4242 (cut", 100));
  }

  @Test
  void shouldTakeTheTickRateFromTheAuxiliaryVector(@TempDir Path dir) throws IOException {
    ByteBuffer vector = ByteBuffer.allocate(48).order(ByteOrder.nativeOrder());
    vector.putLong(6).putLong(4096).putLong(17).putLong(250).putLong(0).putLong(0); // AT_PAGESZ, AT_CLKTCK, AT_NULL
    Path auxv = Files.write(dir.resolve("auxv"), vector.array());

    assertEquals(Optional.of(250L), ProcStat.ticksPerSecond(auxv));
    assertEquals(Optional.empty(), ProcStat.ticksPerSecond(dir.resolve("missing")));
    assertTrue(ProcStat.ticksPerSecond(Path.of("/proc/self/auxv")).isPresent(), "this machine's own");
  }

  @Test
  void shouldFindTheListeningSocketsInodeOfAPort(@TempDir Path dir) throws IOException {
    Path table = Files.writeString(dir.resolve("tcp"), String.join("\n",
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
        "   0: 0100007F:1761 0100007F:A2C4 01 00000000:00000000 00:00000000 00000000     0        0 555 1 0",
        "   1: 0100007F:1761 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 9127 1 0",
        ""));

    assertEquals(OptionalLong.of(9127), PortOwner.listeningInode(0x1761, table), "the listening one, not a connection");
    assertEquals(OptionalLong.empty(), PortOwner.listeningInode(5984, table));
  }

  @Test
  void shouldFindTheProcessListeningOnALoopbackPort() throws IOException {
    try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = listening.getLocalPort();

      assertEquals(Optional.of(SELF), PortOwner.of(port).map(PortOwner.Owner::pid));
      assertEquals(Optional.of(SELF), ServerProcess.of(
          new CouchTarget("http://127.0.0.1:" + port, Optional.empty(), false)).map(LocalServer::pid));
      assertEquals(Optional.empty(), ServerProcess.of(
          new CouchTarget("http://db1.example:" + port, Optional.empty(), false)), "not this machine's");
    }
  }
}
