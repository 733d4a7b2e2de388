package couchbench.memcache.client;

import static couchbench.memcache.client.MemcacheClientHandlerTest.assertFailure;
import static couchbench.memcache.client.MemcacheClientHandlerTest.receive;
import static couchbench.memcache.client.MemcacheClientHandlerTest.send;
import static couchbench.memcache.client.MemcacheClientHandlerTest.written;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MetaReply;
import couchbench.memcache.codec.MetaReply.Code;
import couchbench.memcache.codec.MetaRequest;
import couchbench.memcache.codec.MetaRequest.Command;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Meta requests through the client pipeline: opaque tags matched, quiet batches closed by mn, text beside them. */
class MetaClientHandlerTest {

  private static final String SERVER = "127.0.0.1:11211";

  private final EmbeddedChannel channel = new EmbeddedChannel();

  MetaClientHandlerTest() {
    ServerLink.configure(channel.pipeline(), SERVER,
        MemcacheClientConfig.of(List.of(new InetSocketAddress("127.0.0.1", 11211))), new ProtocolErrors());
  }

  @Test
  void shouldTagEachRequestButMeAndMnAndMatchTheTagsEchoed() {
    CompletableFuture<MemcacheReply> set = send(channel, MetaRequest.of(Command.SET, "a", "F0 T0", bytes("one")));
    CompletableFuture<MemcacheReply> get = send(channel, MetaRequest.of(Command.GET, "a", "v c", null));
    CompletableFuture<MemcacheReply> debug = send(channel, MetaRequest.of(Command.DEBUG, "a", "", null));
    CompletableFuture<MemcacheReply> noop = send(channel, MetaRequest.noop());
    CompletableFuture<MemcacheReply> text = send(channel, new MemcacheRequest.Delete("a", false));
    assertEquals("ms a 3 F0 T0 O0\r\none\r\nmg a v c O1\r\nme a\r\nmn\r\ndelete a\r\n", written(channel));
    receive(channel, "HD O0\r\nVA 3 c9 O1\r\none\r\nME a exp=-1 la=0\r\nMN\r\nDELETED\r\n");
    assertEquals(new MetaReply(Code.HD, "O0", 0, null), set.join());
    assertArrayEquals(bytes("one"), ((MetaReply) get.join()).data());
    assertEquals(Code.ME, ((MetaReply) debug.join()).code());
    assertEquals(new MetaReply(Code.MN, "", -1, null), noop.join());
    assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.DELETED), text.join());
    assertTrue(channel.isActive());
  }

  @Test
  void shouldCompleteAQuietBatchsUnansweredRequestsAsTheirLeftOutReplyWhenItsMnAnswers() {
    CompletableFuture<MemcacheReply> stored = send(channel, quiet(Command.SET, "a", bytes("x")));
    CompletableFuture<MemcacheReply> notStored = send(channel, quiet(Command.SET, "b", bytes("y")));
    CompletableFuture<MemcacheReply> hit = send(channel, quiet(Command.GET, "a", null));
    CompletableFuture<MemcacheReply> miss = send(channel, quiet(Command.GET, "c", null));
    CompletableFuture<MemcacheReply> deleted = send(channel, quiet(Command.DELETE, "a", null));
    CompletableFuture<MemcacheReply> noop = send(channel, MetaRequest.noop());
    assertEquals("ms a 1 v q O0\r\nx\r\nms b 1 v q O1\r\ny\r\nmg a v q O2\r\nmg c v q O3\r\nmd a v q O4\r\nmn\r\n",
        written(channel));
    receive(channel, "NS O1\r\n");
    assertEquals(new MetaReply(Code.HD, "", 0, null), stored.join(), "passed over by a later tag: it succeeded");
    assertEquals(new MetaReply(Code.NS, "O1", 1, null), notStored.join());
    assertFalse(hit.isDone());
    receive(channel, "VA 1 O2\r\nx\r\nMN\r\n");
    assertArrayEquals(bytes("x"), ((MetaReply) hit.join()).data());
    assertEquals(new MetaReply(Code.EN, "", 3, null), miss.join(), "mg's q leaves out EN: a miss");
    assertEquals(new MetaReply(Code.HD, "", 4, null), deleted.join());
    assertEquals(Code.MN, ((MetaReply) noop.join()).code());
    assertTrue(channel.isActive());
  }

  @Test
  void shouldDropTheConnectionOnAnErrorLineThatAQuietRequestMayOwn() {
    CompletableFuture<MemcacheReply> first = send(channel, quiet(Command.DELETE, "a", null));
    CompletableFuture<MemcacheReply> second = send(channel, quiet(Command.DELETE, "b", null));
    send(channel, MetaRequest.noop());
    receive(channel, "CLIENT_ERROR bad command line format\r\nMN\r\n");
    assertFailure("reply out of step with requests", first);
    assertFailure("reply out of step with requests", second);
    assertFalse(channel.isActive(), "either delete may have failed: never call one of them done");
  }

  @Test
  void shouldDropTheConnectionOnATagThatNoRequestWaitingHas() {
    CompletableFuture<MemcacheReply> quiet = send(channel, quiet(Command.DELETE, "a", null));
    receive(channel, "NF O7\r\n");
    assertFailure("reply out of step with requests", quiet);
    assertFalse(channel.isActive());
  }

  @Test
  void shouldDropTheConnectionWhenAnAnsweredRequestsTagDiffers() {
    CompletableFuture<MemcacheReply> get = send(channel, MetaRequest.of(Command.GET, "a", "", null));
    receive(channel, "HD O5\r\n");
    assertFailure("reply out of step with requests", get);
    assertFalse(channel.isActive());
  }

  @Test
  void shouldGiveAnErrorToTheRequestInFrontWhenNoQuietOneIs() {
    CompletableFuture<MemcacheReply> incr = send(channel, MetaRequest.of(Command.ARITHMETIC, "a", "", null));
    CompletableFuture<MemcacheReply> get = send(channel, MetaRequest.of(Command.GET, "a", "", null));
    receive(channel, "CLIENT_ERROR cannot increment or decrement non-numeric value\r\nHD O1\r\n");
    assertEquals(MemcacheReply.ErrorKind.CLIENT_ERROR, ((MemcacheReply.Error) incr.join()).kind());
    assertEquals(Code.HD, ((MetaReply) get.join()).code());
    assertTrue(channel.isActive());
  }

  @Test
  void shouldDropTheConnectionWhenAMetaSetIsRefused() {
    CompletableFuture<MemcacheReply> set = send(channel, MetaRequest.of(Command.SET, "a", "E1", bytes("x")));
    receive(channel, "CLIENT_ERROR invalid flag\r\n");
    assertFailure("storage command answered CLIENT_ERROR invalid flag", set);
    assertFalse(channel.isActive(), "memcached may read the data block as a command");
  }

  private static MetaRequest quiet(Command command, String key, byte[] value) {
    return new MetaRequest(command, key, false, "v", value, true, -1);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
