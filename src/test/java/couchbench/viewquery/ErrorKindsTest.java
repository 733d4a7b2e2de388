package couchbench.viewquery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ErrorKindsTest {

  @Test
  void shouldSortGatlingsFailureMessagesIntoHttperfsErrorKinds() {
    assertEquals("connrefused",
        ErrorKinds.of("i.n.c.AbstractChannel$AnnotatedConnectException: Connection refused: /127.0.0.1:5984"));
    assertEquals("connreset", ErrorKinds.of("j.n.SocketException: Connection reset"));
    assertEquals("connreset", ErrorKinds.of("j.i.IOException: Premature close"));
    assertEquals("client-timo",
        ErrorKinds.of("i.g.h.c.i.RequestTimeoutException: Request timeout to 127.0.0.1/127.0.0.1:5984 after 60000 ms"));
    assertEquals("socket-timo",
        ErrorKinds.of("i.n.c.ConnectTimeoutException: connection timed out after 10000 ms: /10.0.0.1:5984"));
    assertEquals("fd-unavail", ErrorKinds.of("j.n.SocketException: Too many open files"));
    assertEquals("addrunavail", ErrorKinds.of("j.n.BindException: Cannot assign requested address"));
    assertEquals("other", ErrorKinds.of("i.n.h.c.h.TooLongHttpHeaderException: header is larger than 8192 bytes"));
  }

  @Test
  void shouldCountFailedChecksNowhereAndWhatTheMessagesDoNotExplainAsOther() {
    Map<String, Long> messages = new LinkedHashMap<>();
    messages.put("status.find.is(200), but actually found 500", 7L);
    messages.put("j.n.ConnectException: Connection refused", 3L);
    messages.put("j.i.IOException: Premature close", 1L);

    Map<String, Long> counts = ErrorKinds.count(5, messages);

    assertEquals(ErrorKinds.NAMES, counts.keySet().stream().toList());
    assertEquals(3L, counts.get("connrefused"));
    assertEquals(1L, counts.get("connreset"));
    assertEquals(1L, counts.get("other"), "5 without a reply, 4 explained");
    assertEquals(5L, counts.values().stream().mapToLong(Long::longValue).sum());
  }
}
