package couchbench.startup;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * Netty's settings for a load generator, each unless the user's own -D says otherwise: one event loop per core the
 * JVM may use, where Netty's default is two; no tracking of buffers for leaks, where Netty's default tracks one
 * allocation in 128 with a stack trace.
 *
 * <p>Why: the load generator shares the cores with what it measures, or with its own injector's other work. The
 * fewer and busier the loops, the fewer times a loop sleeps and is woken per request: MemGet at pipeline 1 used 28.3
 * us of CPU per request with 4 loops on 2 cores and 20.4 with 2. The leak tracker's stack traces took 4.6% of
 * MemSet's samples at pipeline 16 (docs/cpu-per-request.md); the tests keep Netty's own level (the pom).
 *
 * <p>Why here: Gatling 3.15.1 creates its event loops in {@code io.gatling.app.Gatling$.start}, before any
 * simulation code runs, and Netty reads both properties once, when the classes that hold them load; logging starts
 * earlier, when Gatling's main object is created. Logback runs the configurators named in META-INF/services before
 * it reads logback-test.xml, so this one sets the properties and hands over.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_TOP_PRIORITY)
public final class NettyDefaults extends ContextAwareBase implements Configurator {

  /** Netty's own settings. */
  static final String EVENT_LOOP_THREADS = "io.netty.eventLoopThreads";
  static final String LEAK_DETECTION = "io.netty.leakDetection.level";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    Map.of(
            EVENT_LOOP_THREADS, Integer.toString(Runtime.getRuntime().availableProcessors()),
            LEAK_DETECTION, "disabled")
        .forEach((name, value) -> {
          if (System.getProperty(name) == null) {
            System.setProperty(name, value);
          }
        });
    return ExecutionStatus.INVOKE_NEXT_IF_ANY;
  }
}
