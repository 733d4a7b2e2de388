package couchbench.viewquery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClientShareTest {

  @Test
  void shouldSplitACountSoThatTheSharesAddUp() {
    long sum = 0;
    for (int i = 0; i < 3; i++) {
      sum += ClientShare.parse("client", i + "/3").share(27001);
    }

    assertEquals(27001, sum);
    assertEquals(9001, ClientShare.parse("client", "0/3").share(27001));
    assertEquals(9000, ClientShare.parse("client", " 2 / 3 ").share(27001));
    assertEquals(50.0, ClientShare.parse("client", "2/3").rate(150));
    assertEquals("0/1", ClientShare.ALONE.toString());
  }
}
