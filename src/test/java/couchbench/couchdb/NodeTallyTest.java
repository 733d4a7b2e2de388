package couchbench.couchdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NodeTallyTest {

  @Test
  void shouldCountA202ApartFromTheOtherSuccessesAndAnErrorStatusAsFailed() {
    NodeTally node = new NodeTally("http://a:5984");
    node.sent(1_000);
    node.replied(201, 2_000_000, 1_002);
    node.replied(202, 3_000_000, 1_005);
    node.replied(503, 1_000_000, 1_006);

    NodeTally.Figures figures = node.figures();
    assertEquals(1, figures.ok());
    assertEquals(1, figures.accepted());
    assertEquals(1, figures.failed());
    assertEquals(3, figures.requests());
    assertEquals(2, figures.okNanos().getTotalCount(), "the 2xx replies' times, the 202 included");
    assertEquals(1_000, figures.firstMillis());
    assertEquals(1_006, figures.lastMillis());
  }

  @Test
  void shouldTellWhenANodeWentDownAndWhenItAnsweredAgain() {
    NodeTally node = new NodeTally("http://b:5984");
    node.replied(200, 1_000, 1_000);
    node.noReply(2_000);
    node.noReply(2_100);
    node.replied(200, 1_000, 3_000);
    node.noReply(4_000);

    NodeTally.Figures figures = node.figures();
    assertEquals(3, figures.noReply());
    assertEquals(3, figures.failed());
    assertEquals(2, figures.outages().size());
    assertArrayEquals(new long[] {2_000, 3_000}, figures.outages().get(0));
    assertArrayEquals(new long[] {4_000, 0}, figures.outages().get(1), "still down when the load ended");
  }
}
