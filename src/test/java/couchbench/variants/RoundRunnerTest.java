package couchbench.variants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoundRunnerTest {

  @Test
  void shouldStartARoundAsThisJvmWasStartedWithOneRoundAndTheVariantsProperties() {
    RoundRunner runner = new RoundRunner("MemGet", List.of("-Xmx1G", "-Dvariants=a;b:memcache.servers=127.0.0.1:1",
        "-Drounds=5", "-Dregression=p99:10%", "-Dmemcache.servers=127.0.0.1:2", "-Dusers=4"), "cp.jar",
        Path.of("/tmp/reports"));
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("memcache.servers", "127.0.0.1:1");
    properties.put("variant", "b");
    properties.put("rounds", "1");

    List<String> command = runner.command(new Variant("b", Map.of("memcache.servers", "127.0.0.1:1")), properties);

    assertTrue(command.get(0).endsWith("/bin/java"), command.toString());
    assertEquals(List.of("-Xmx1G", "-Dusers=4", "-Dmemcache.servers=127.0.0.1:1", "-Dvariant=b", "-Drounds=1", "-cp",
        "cp.jar", "io.gatling.app.Gatling", "--simulation", "MemGet", "--results-folder", "/tmp/reports"),
        command.subList(1, command.size()));
    assertFalse(command.stream().anyMatch(option -> option.startsWith("-Dvariants")), "a round conducts nothing");
  }
}
