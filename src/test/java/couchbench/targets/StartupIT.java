package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.process.FreePort;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StartupIT {

  @Test
  void shouldPrintTheSettingsOnceThenStopWithOneLineAndStatus1() throws Exception {
    String url = "http://127.0.0.1:" + FreePort.pick();
    Process jvm = ChildJvm.start(Map.of("couchdb.url", url.replace("//", "//admin:s3cr3t-Pw@")),
        StartupFailMain.class);
    assertTrue(jvm.waitFor(20, TimeUnit.SECONDS));
    String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, jvm.exitValue(), output);
    assertEquals(List.of(
        "couchbench: settings: couchdb.url=http://admin:*****@127.0.0.1:" + url.replaceAll(".*:", "")
            + ", CouchDB user admin (from -Dcouchdb.url), password ***** (from -Dcouchdb.url);"
            + " memcache.servers not set (a local memcached); couchbench.defaultPorts=false: the default ports are"
            + " not looked at.",
        "couchbench: stopped: CouchDB at " + url + " does not answer (connection refused): start it or set"
            + " -Dcouchdb.url"), output.lines().toList());
  }
}
