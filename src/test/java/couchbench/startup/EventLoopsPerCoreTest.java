package couchbench.startup;

import static couchbench.startup.EventLoopsPerCore.EVENT_LOOP_THREADS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EventLoopsPerCoreTest {

  private String before;

  @BeforeEach
  void clear() {
    before = System.clearProperty(EVENT_LOOP_THREADS);
  }

  @AfterEach
  void restore() {
    if (before == null) {
      System.clearProperty(EVENT_LOOP_THREADS);
    } else {
      System.setProperty(EVENT_LOOP_THREADS, before);
    }
  }

  /** As in Gatling's JVM: Logback finds the configurator through META-INF/services when logging starts. */
  @Test
  void shouldGiveNettyOneLoopPerCoreWhenLoggingStarts() throws Exception {
    new ContextInitializer(new LoggerContext()).autoConfig();

    assertEquals(Integer.toString(Runtime.getRuntime().availableProcessors()), System.getProperty(EVENT_LOOP_THREADS));
  }

  @Test
  void shouldKeepTheUsersOwnSetting() {
    System.setProperty(EVENT_LOOP_THREADS, "7");
    LoggerContext context = new LoggerContext();
    EventLoopsPerCore configurator = new EventLoopsPerCore();
    configurator.setContext(context);

    configurator.configure(context);

    assertEquals("7", System.getProperty(EVENT_LOOP_THREADS));
  }
}
