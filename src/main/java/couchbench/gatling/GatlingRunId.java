package couchbench.gatling;

import couchbench.startup.Console;
import couchbench.startup.RunClock;
import io.gatling.core.action.Action;
import io.gatling.core.action.builder.ActionBuilder;
import io.gatling.core.scenario.SimulationParams;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.stats.writer.LogFileDataWriter;
import io.gatling.core.stats.writer.RunMessage;
import io.gatling.core.structure.PopulationBuilder;
import io.gatling.core.structure.ScenarioBuilder;
import io.gatling.core.structure.ScenarioContext;
import java.lang.reflect.Field;
import java.util.Optional;
import scala.collection.immutable.List;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The id Gatling gives the run it is making, which names the folder it writes: {@code <simulation id>-<start>}, e.g.
 * {@code bulkinsert-20261203165321427}. Gatling 3.15 hands a simulation neither, and guessing the folder from the
 * timestamps in the names failed: Gatling stamps them with its own clock (the wall clock at JVM start plus the time
 * elapsed since), which drifts from the wall clock when the machine's clock is stepped. So the id is read where
 * Gatling keeps it, its simulation.log writer, at the one moment a simulation's code meets Gatling's engine: when
 * Gatling builds the scenarios, right after the simulation's before() hook, once the run has its id and its folder,
 * and before any user starts. A hook in the first population's scenario does the reading as it is built; it puts no
 * action into the load. The same hook reads Gatling's clock, so that simulation.log's times can be placed on the
 * run's ({@link RunClock#alignGatling}), and adds the live metrics' tap where the run asks for it.
 */
public final class GatlingRunId {

  /** Hears what the hook read, once per run. */
  public interface Listener {

    /** @param runId Gatling's id of this run: the name of its folder under the results folder */
    void named(String runId);

    /** @param why why Gatling's id of this run could not be read, in words for the user */
    void unknown(String why);

    /** @return where every response and user goes as Gatling records it ({@link ResponseTap}), if anywhere */
    default Optional<ResponseTap.Records> live() {
      return Optional.empty();
    }
  }

  private GatlingRunId() {}

  /**
   * @param params the simulation's parameters, as Gatling's Java Simulation makes them
   * @param listener told Gatling's run id when Gatling builds the scenarios
   * @return the same parameters, the first population's scenario with the hook in it
   */
  public static SimulationParams toldTo(SimulationParams params, Listener listener) {
    List<PopulationBuilder> roots = params.rootPopulationBuilders();
    if (roots.isEmpty()) {
      return params; // Gatling refuses a simulation without populations itself
    }
    PopulationBuilder first = roots.head();
    ScenarioBuilder scenario = first.scenarioBuilder();
    ScenarioBuilder hooked = new ScenarioBuilder(scenario.name(), scenario.actionBuilders().$colon$colon(hook(listener)));
    PopulationBuilder firstHooked = first.copy(hooked, first.injectionProfile(), first.scenarioProtocols(),
        first.scenarioThrottleSteps(), first.pauseType(), first.children(), first.shard());
    @SuppressWarnings("unchecked") // Scala's List.tail is List[A]; Java sees its erasure
    List<PopulationBuilder> others = (List<PopulationBuilder>) roots.tail();
    return new SimulationParams(params.name(), others.$colon$colon(firstHooked), params.globalProtocols(),
        params.globalPauseType(), params.globalThrottleSteps(), params.maxDuration(), params.assertions(),
        params.before(), params.after());
  }

  /** Reads the id and Gatling's clock when its scenario is built, and gives the chain back as it was. */
  private static ActionBuilder hook(Listener listener) {
    return new ActionBuilder() {
      @Override
      public Action build(ScenarioContext ctx, Action next) {
        RunClock.alignGatling(ctx.coreComponents().clock().nowMillis());
        try {
          listener.named(read(ctx.coreComponents().statsEngine()));
        } catch (ReflectiveOperationException | ClassCastException e) {
          listener.unknown("this Gatling keeps its run id elsewhere than Gatling 3.15.1 did (" + e + ")");
        } catch (IllegalStateException e) {
          listener.unknown(e.getMessage());
        }
        listener.live().ifPresent(records -> {
          try {
            ResponseTap.install(ctx.coreComponents().statsEngine(), records);
          } catch (ReflectiveOperationException | RuntimeException e) {
            Console.say("metrics: Gatling's records are not served live: this Gatling keeps its data writers"
                + " elsewhere than Gatling 3.15.1 did (" + e + "); memcache's times and the servers' figures still"
                + " are");
          }
        });
        return next;
      }
    };
  }

  /**
   * Gatling 3.15.1's path to the id, all private: DataWritersStatsEngine.dataWriters, each an AtomicRunnableActorRef
   * whose actor is a data writer; the file writer, LogFileDataWriter, holds the run's RunMessage.
   */
  static String read(StatsEngine statsEngine) throws ReflectiveOperationException {
    Seq<?> writers = (Seq<?>) field(statsEngine, "dataWriters");
    for (Object writer : CollectionConverters.asJava(writers)) {
      if (field(writer, "actor") instanceof LogFileDataWriter file) {
        return ((RunMessage) field(file, "runMessage")).runId();
      }
    }
    throw new IllegalStateException("Gatling writes no simulation.log in this run: gatling.data.writers in"
        + " gatling.conf must hold file");
  }

  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(owner);
  }
}
