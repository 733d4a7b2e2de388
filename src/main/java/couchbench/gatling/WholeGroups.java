package couchbench.gatling;

import io.gatling.javaapi.core.Session;
import java.util.function.Function;

/**
 * A group named for the outcome of a request sent before it, yet timed from that request's start: Gatling names a group
 * as a user enters it, before the request's reply is known, so a read that is a cache hit or a miss only once its
 * first request is answered enters "hit" or "miss" after it, and this step, the group's first, moves the group's start
 * back to when the read began. Gatling's report and results.json then time the group whole, from the read's start to
 * the group's end.
 */
public final class WholeGroups {

  private WholeGroups() {}

  /**
   * @param startAttribute the session attribute holding the start, in Gatling's clock (System.currentTimeMillis()), put
   *     there before the request the group is named after
   * @return the group's first step: the user's innermost group begun again, under its own name, at that start; the
   *     session as it was when the attribute is absent or the user is in no group
   */
  public static Function<Session, Session> startedAt(String startAttribute) {
    return session -> {
      io.gatling.core.session.Session engine = session.asScala();
      if (!session.contains(startAttribute) || engine.blockStack().isEmpty()
          || !(engine.blockStack().head() instanceof io.gatling.core.session.GroupBlock group)) {
        return session;
      }
      @SuppressWarnings("unchecked") // Scala's List.tail() is an Object to Java: it is the rest of the same stack
      scala.collection.immutable.List<io.gatling.core.session.Block> outer =
          (scala.collection.immutable.List<io.gatling.core.session.Block>) engine.blockStack().tail();
      return new Session(engine.exitGroup(outer).enterGroup(group.groups().last(), session.getLong(startAttribute)));
    };
  }

  /** @return the start to put under a start attribute, in Gatling's clock */
  public static long now() {
    return System.currentTimeMillis();
  }
}
