package couchbench.gatling;

import io.gatling.commons.stats.OK$;
import io.gatling.core.actor.ActorRef;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.stats.writer.DataWriterMessage;
import io.gatling.core.stats.writer.DataWriterMessage$LoadEvent$Response;
import io.gatling.core.stats.writer.DataWriterMessage$LoadEvent$User;
import java.lang.reflect.Field;
import scala.collection.immutable.Seq;
import scala.concurrent.Promise;
import scala.concurrent.duration.FiniteDuration;
import scala.runtime.BoxedUnit;

/**
 * Every response and user Gatling's stats engine records, handed on as it is recorded, for live metrics: Gatling 3.15
 * writes simulation.log through an 8 KiB buffer written out only when full (at 20 requests a second, some 19 s late),
 * and has no public hook for a writer of one's own. So the tap joins the engine's own data writers (a private list,
 * the file writer's, where {@link GatlingRunId} reads the run's id), last, and gets each record as the file writer
 * does: the same object, on the thread that logged it, with the same start and end. It times nothing itself.
 */
public final class ResponseTap implements ActorRef<DataWriterMessage> {

  /** Hears the records, on Gatling's threads: it must be quick and must not throw. */
  public interface Records {

    /**
     * @param name the request's name
     * @param startMillis its start, Gatling's epoch milliseconds
     * @param endMillis its end
     * @param ok whether Gatling counts it OK
     */
    void response(String name, long startMillis, long endMillis, boolean ok);

    /**
     * @param scenario the user's scenario
     * @param start true as it starts, false as it ends
     */
    void user(String scenario, boolean start);
  }

  private final Records records;

  private ResponseTap(Records records) {
    this.records = records;
  }

  /**
   * Adds a tap to the engine's data writers, after the file writer, from the scenarios' build on (before any user).
   *
   * @param statsEngine Gatling's stats engine of the run
   * @param records where the records go
   * @throws ReflectiveOperationException when this Gatling keeps its data writers elsewhere than 3.15.1 did
   */
  static void install(StatsEngine statsEngine, Records records) throws ReflectiveOperationException {
    Field field = statsEngine.getClass().getDeclaredField("dataWriters");
    field.setAccessible(true);
    @SuppressWarnings("unchecked") // DataWritersStatsEngine.dataWriters: Seq[ActorRef[DataWriterMessage]]
    Seq<ActorRef<DataWriterMessage>> writers = (Seq<ActorRef<DataWriterMessage>>) field.get(statsEngine);
    field.set(statsEngine, writers.appended(new ResponseTap(records)));
  }

  @Override
  public void $bang(DataWriterMessage message) {
    try {
      if (message instanceof DataWriterMessage$LoadEvent$Response response) {
        records.response(response.name(), response.startTimestamp(), response.endTimestamp(),
            response.status() == OK$.MODULE$);
      } else if (message instanceof DataWriterMessage$LoadEvent$User user) {
        records.user(user.scenario(), user.start());
      } else if (message instanceof DataWriterMessage.Stop stop) {
        // Gatling's stop waits for every writer's answer, with no time limit.
        stop.stopPromise().trySuccess(BoxedUnit.UNIT);
      }
    } catch (RuntimeException e) {
      // Never into Gatling's handling of the response: live metrics miss one record, the run's results do not.
    }
  }

  @Override
  public String name() {
    return "couchbench-live-metrics";
  }

  @Override
  public <R> Promise<R> replyPromise(FiniteDuration timeout) {
    return Promise.apply();
  }
}
