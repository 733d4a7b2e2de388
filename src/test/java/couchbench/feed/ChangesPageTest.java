package couchbench.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChangesPageTest {

  @Test
  void shouldReadAPagesRowsAndTheSeqToGoOnFromWhateverItsSeqIntervalLeftOut() throws IOException {
    // CouchDB 3.5 with seq_interval=2: a seq on every second row only; the page's last_seq is always there.
    ChangesPage page = ChangesPage.parse(("{\"results\":[{\"seq\":null,\"id\":\"w0-0\",\"changes\":[{\"rev\":\"1-a\"}]},"
        + "{\"seq\":\"2-g1AAA\",\"id\":\"w0-1\",\"changes\":[{\"rev\":\"1-b\"}],\"doc\":{\"_id\":\"w0-1\"}}],"
        + "\"last_seq\":\"2-g1AAA\",\"pending\":98}").getBytes(StandardCharsets.UTF_8));

    assertEquals(List.of(new Change(null, "w0-0", "1-a", false, false), new Change("2-g1AAA", "w0-1", "1-b", false,
        true)), page.rows());
    assertEquals("2-g1AAA", page.lastSeq());
    assertEquals("7", ChangesPage.parse("{\"results\":[],\"last_seq\":7}".getBytes(StandardCharsets.UTF_8))
        .lastSeq(), "pouchdb-server's seqs are numbers");
  }

  @Test
  void shouldRefuseAReplyThatIsNotAPage() {
    assertEquals("a page without last_seq", assertThrows(IOException.class,
        () -> ChangesPage.parse("{\"results\":[]}".getBytes(StandardCharsets.UTF_8))).getMessage());
    assertThrows(IOException.class, () -> ChangesPage.parse("{\"error\":\"not_found\",\"reason\":\"missing\"}"
        .getBytes(StandardCharsets.UTF_8)));
  }
}
