package couchbench.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.gatling.core.session.GroupBlock;
import io.gatling.javaapi.core.Session;
import org.junit.jupiter.api.Test;

class WholeGroupsTest {

  private static final String START = "readStart";

  @Test
  void shouldBeginTheInnermostGroupAgainUnderItsNameAtTheStartGiven() {
    Session inGroups = new Session(io.gatling.core.session.Session$.MODULE$.apply("scenario", 1, null)
        .enterGroup("outer", 1_000).enterGroup("cache-aside miss", 2_000)).set(START, 1_500L);

    Session moved = WholeGroups.startedAt(START).apply(inGroups);

    GroupBlock group = (GroupBlock) moved.asScala().blockStack().head();
    assertEquals("List(outer, cache-aside miss)", group.groups().toString());
    assertEquals(1_500, group.startTimestamp());
    assertEquals(2, moved.asScala().blockStack().size(), "the outer group still there, under it");
    assertEquals(1_500L, moved.getLong(START), "the attributes kept");
  }

  @Test
  void shouldLeaveASessionWithoutAGroupOrAStartAsItWas() {
    Session noGroup = new Session(io.gatling.core.session.Session$.MODULE$.apply("scenario", 1, null)).set(START, 5L);
    Session noStart = new Session(io.gatling.core.session.Session$.MODULE$.apply("scenario", 1, null)
        .enterGroup("cache-aside hit", 2_000));

    assertSame(noGroup, WholeGroups.startedAt(START).apply(noGroup));
    assertSame(noStart, WholeGroups.startedAt(START).apply(noStart));
  }
}
