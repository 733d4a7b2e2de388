package couchbench.viewquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttperfFiguresTest {

  @Test
  void shouldPrintHttperfsLinesInItsOrderWithTheRunsCounts() {
    ConnTally tally = new ConnTally();
    for (int i = 0; i < 3; i++) {
      long connection = tally.connectionStarted();
      for (int call = 0; call < 2; call++) {
        long sent = tally.requestSent();
        tally.countReply(sent, i == 2 && call == 1 ? 503 : 200);
        tally.countReplySize(470);
      }
      tally.connectionEnded(connection);
    }
    long lost = tally.connectionStarted();
    tally.requestSent();
    tally.countUnanswered();
    tally.connectionEnded(lost);

    List<String> lines = new HttperfFigures(tally.figures(),
        ErrorKinds.count(1, Map.of("j.n.ConnectException: Connection refused", 1L)), 1).lines();

    List<String> heads = lines.stream().filter(line -> !line.isEmpty())
        .map(line -> line.substring(0, line.indexOf(':'))).toList();
    assertEquals(List.of("Total", "Connection rate", "Connection time [ms]", "Connection time [ms]",
        "Connection length [replies/conn]", "Request rate", "Request size [B]", "Reply rate [replies/s]",
        "Reply time [ms]", "Reply size [B]", "Reply status", "CPU time [s]", "Net I/O", "Errors", "Errors"), heads);
    assertTrue(lines.get(0).startsWith("Total: connections 4 requests 7 replies 6 test-duration "), lines.get(0));
    assertTrue(lines.contains("Connection length [replies/conn]: 1.500"), lines.toString());
    assertTrue(lines.contains("Reply size [B]: header n/a content 470.0 footer n/a (total n/a)"), lines.toString());
    assertTrue(lines.contains("Reply status: 1xx=0 2xx=5 3xx=0 4xx=0 5xx=1"), lines.toString());
    assertTrue(lines.contains("Errors: total 1 client-timo 0 socket-timo 0 connrefused 1 connreset 0"), lines.toString());
    assertTrue(lines.contains("Errors: fd-unavail 0 addrunavail 0 ftab-full 0 other 0"), lines.toString());
    assertTrue(lines.contains("Reply rate [replies/s]: min 0.0 avg 0.0 max 0.0 stddev 0.0 (0 samples)"),
        "no full 5 s window yet: " + lines);
  }
}
