package couchbench.targets;

import couchbench.process.FreePort;
import couchbench.startup.Settings;
import java.util.Map;

/**
 * A JVM for MemcachedServerIT to kill: starts memcached ("direct" through MemcachedServer, "targets" through
 * Targets, which adds a shutdown hook), prints "pid PID PORT", then waits to be killed.
 */
public final class ServerHolderMain {

  private ServerHolderMain() {}

  public static void main(String[] args) throws InterruptedException {
    long pid;
    int port;
    if (args.length > 0 && args[0].equals("targets")) {
      String free = FreePort.LOOPBACK + ":" + FreePort.pick();
      MemcacheTarget target = Targets.memcache(Settings.of(Map.of(), System.getenv()), free);
      port = target.addresses().get(0).getPort();
      pid = ProcessHandle.current().descendants().filter(p -> p.info().command().orElse("").endsWith("memcached"))
          .findFirst().orElseThrow().pid();
    } else {
      MemcachedServer server = MemcachedServer.start();
      pid = server.pid();
      port = server.port();
    }
    System.out.println("pid " + pid + " " + port);
    Thread.sleep(60_000);
  }
}
