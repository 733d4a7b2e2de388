package couchbench.startup;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Gives Gatling's Netty one event loop per core the JVM may use, where Netty's default is two, unless
 * -Dio.netty.eventLoopThreads says otherwise.
 *
 * <p>Why: the load generator shares the cores with what it measures, or with its own injector's other work; the
 * fewer and busier the loops, the fewer times a loop sleeps and is woken per request. MemGet at pipeline 1 used
 * 28.3 us of CPU per request with 4 loops on 2 cores and 20.4 with 2 (docs/cpu-per-request.md).
 *
 * <p>Why here: Gatling 3.15.1 creates its event loops in {@code io.gatling.app.Gatling$.start}, before any
 * simulation code runs, from that property (Netty reads it once, when the class that holds the default loads);
 * logging starts earlier, when Gatling's main object is created. Logback runs the configurators named in
 * META-INF/services before it reads logback-test.xml, so this one sets the property and hands over.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_TOP_PRIORITY)
public final class EventLoopsPerCore extends ContextAwareBase implements Configurator {

  /** Netty's own setting; a user's -D keeps precedence. */
  static final String EVENT_LOOP_THREADS = "io.netty.eventLoopThreads";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty(EVENT_LOOP_THREADS) == null) {
      System.setProperty(EVENT_LOOP_THREADS, Integer.toString(Runtime.getRuntime().availableProcessors()));
    }
    return ExecutionStatus.INVOKE_NEXT_IF_ANY;
  }
}
