package couchbench.startup;

import static couchbench.startup.NettyDefaults.EVENT_LOOP_THREADS;
import static couchbench.startup.NettyDefaults.LEAK_DETECTION;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NettyDefaultsTest {

  private final Map<String, String> before = new HashMap<>();

  @BeforeEach
  void clear() {
    for (String name : List.of(EVENT_LOOP_THREADS, LEAK_DETECTION)) {
      before.put(name, System.clearProperty(name));
    }
  }

  @AfterEach
  void restore() {
    before.forEach((name, value) -> {
      if (value == null) {
        System.clearProperty(name);
      } else {
        System.setProperty(name, value);
      }
    });
  }

  /** As in Gatling's JVM: Logback finds the configurator through META-INF/services when logging starts. */
  @Test
  void shouldSetNettysLoadGeneratorSettingsWhenLoggingStarts() throws Exception {
    new ContextInitializer(new LoggerContext()).autoConfig();

    assertEquals(Integer.toString(Runtime.getRuntime().availableProcessors()), System.getProperty(EVENT_LOOP_THREADS));
    assertEquals("disabled", System.getProperty(LEAK_DETECTION));
  }

  @Test
  void shouldKeepTheUsersOwnSettings() {
    System.setProperty(EVENT_LOOP_THREADS, "7");
    System.setProperty(LEAK_DETECTION, "paranoid");
    LoggerContext context = new LoggerContext();
    NettyDefaults configurator = new NettyDefaults();
    configurator.setContext(context);

    configurator.configure(context);

    assertEquals("7", System.getProperty(EVENT_LOOP_THREADS));
    assertEquals("paranoid", System.getProperty(LEAK_DETECTION));
  }
}
