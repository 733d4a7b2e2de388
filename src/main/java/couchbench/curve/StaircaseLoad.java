package couchbench.curve;

import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.exec;

import couchbench.gatling.Pacing;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongUnaryOperator;

/**
 * A staircase as Gatling chains, for a load of one operation repeated (CouchGet, CouchSet, MemGet, MemSet): each
 * virtual user waits for its intended start at the step's rate, runs the operation, and the step records its outcome
 * and its latency on both clocks; the users loop while a step is under way.
 */
public final class StaircaseLoad {

  private static final String PACE = "couchbench staircase pace";

  private final Staircase staircase;
  private final AtomicInteger users = new AtomicInteger();

  /** A user's schedule and its operation under way. */
  private static final class Pace {
    final LongUnaryOperator intendedStarts;
    long intendedStart;
    long actualStart;

    Pace(LongUnaryOperator intendedStarts) {
      this.intendedStarts = intendedStarts;
    }
  }

  /**
   * @param plan the staircase
   * @param system what it loads, for its lines, e.g. "CouchGet"
   * @param users the virtual users sharing each step's rate
   * @param say where each step's line goes (the console)
   */
  public StaircaseLoad(CurvePlan plan, String system, int users, Consumer<String> say) {
    this.staircase = new Staircase(plan, system, users, say);
  }

  /**
   * @param operation one operation: a request, or a group
   * @return a user's whole load: the operation at its intended starts, step after step, until the staircase ends; a
   *     begun operation is finished
   */
  public ChainBuilder climb(ChainBuilder operation) {
    return exec(session -> {
      staircase.begin();
      return session.set(PACE, new Pace(staircase.intendedStarts(users.getAndIncrement())));
    }).exec(asLongAs(session -> staircase.running()).on(exec(session -> {
      Pace pace = pace(session);
      pace.intendedStart = pace.intendedStarts.applyAsLong(System.nanoTime());
      return session;
    }).exec(Pacing.untilIntendedStart(session -> pace(session).intendedStart))
        .exec(session -> {
          pace(session).actualStart = System.nanoTime();
          return session;
        })
        .exec(operation)
        .exec(session -> {
          Pace pace = pace(session);
          staircase.record(!session.isFailed(), session.isFailed(), pace.intendedStart, pace.actualStart,
              System.nanoTime());
          return session.markAsSucceeded();
        })));
  }

  /** @return the steps run, in order */
  public List<StepFigures> steps() {
    return staircase.steps();
  }

  private static Pace pace(Session session) {
    return session.get(PACE);
  }
}
