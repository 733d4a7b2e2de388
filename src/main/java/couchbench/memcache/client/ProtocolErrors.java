package couchbench.memcache.client;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MetaReply;
import couchbench.memcache.codec.PrintableBytes;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What servers sent that no request was waiting for (a second reply to a request, an answer to a noreply request,
 * bytes from a server that is not memcache), and the connections opened, dropped (and why) and opened again, per
 * server. Each such reply drops its connection, which the next request opens again; nothing waited for it, so no
 * request fails: the errors wait here until {@link #takeUnreported} hands them to what reports them. Thread-safe:
 * event loops add, actions take, and the run's report reads {@link #byServer} at its end.
 */
public final class ProtocolErrors {

  /** How many bytes of a reply an error shows. */
  static final int SHOWN_BYTES = 60;

  /**
   * One reply no request was waiting for.
   *
   * @param server the server, as {@code host:port}
   * @param reply its first bytes, printable: {@code \r}, {@code \n} and other bytes outside ASCII's printable ones
   *     escaped, at most {@value #SHOWN_BYTES} bytes of it
   */
  public record Error(String server, String reply) {

    /**
     * @return what a user sees, e.g.
     *     {@code memcache server 127.0.0.1:11211 sent a reply no request was waiting for: "STORED\r\n"}
     */
    public String message() {
      return "memcache server " + server + " sent a reply no request was waiting for: \"" + reply + "\"";
    }
  }

  /** Why a connection was dropped; the client closing it is not counted. */
  public enum DropCause {
    /** A reply no request was waiting for, or one that does not fit the request it came for. */
    OUT_OF_STEP("out-of-step reply"),
    /** A reply the decoder could not read. */
    MALFORMED_REPLY("malformed reply"),
    /** A storage command answered with an error: the server may have read its data block as a command. */
    STORE_REFUSED("storage command refused"),
    /** No reply within the request timeout. */
    TIMEOUT("timeout"),
    /** The server closed the connection (end of stream). */
    SERVER_CLOSED("closed by the server"),
    /** An error on the connection: an I/O error such as a reset, or an exception in its pipeline. */
    IO_ERROR("I/O error");

    private final String words;

    DropCause(String words) {
      this.words = words;
    }

    /** @return the cause in words, as a report shows it, e.g. "closed by the server" */
    public String words() {
      return words;
    }
  }

  /**
   * One server's tally.
   *
   * @param errors replies no request was waiting for
   * @param opened connections opened, the reopened ones included
   * @param reopened connections opened again after one was dropped
   * @param dropped connections dropped for any reason but the client closing them, by cause (those that occurred);
   *     each is opened again by the next request
   * @param firstReply the first reply no request was waiting for, as {@link Error#reply}; null when there was none
   */
  public record ServerTally(long errors, long opened, long reopened, Map<DropCause, Long> dropped,
      String firstReply) {}

  private final Queue<Error> unreported = new ConcurrentLinkedQueue<>();
  private final Map<String, Counts> byServer = new ConcurrentHashMap<>();

  private static final class Counts {
    final AtomicLong errors = new AtomicLong();
    final AtomicLong opened = new AtomicLong();
    final AtomicLong reopened = new AtomicLong();
    final AtomicLongArray dropped = new AtomicLongArray(DropCause.values().length);
    volatile String firstReply;

    Map<DropCause, Long> droppedByCause() {
      Map<DropCause, Long> byCause = new EnumMap<>(DropCause.class);
      for (DropCause cause : DropCause.values()) {
        if (dropped.get(cause.ordinal()) > 0) {
          byCause.put(cause, dropped.get(cause.ordinal()));
        }
      }
      return Collections.unmodifiableMap(byCause);
    }
  }

  /** A decoded reply that found no request waiting. */
  void unexpected(String server, MemcacheReply reply) {
    add(server, PrintableBytes.of(replyLine(reply).getBytes(StandardCharsets.UTF_8), SHOWN_BYTES));
  }

  /** Bytes that came while no reply was awaited; they are not consumed. */
  void unexpected(String server, ByteBuf bytes) {
    byte[] shown = new byte[Math.min(SHOWN_BYTES, bytes.readableBytes())];
    bytes.getBytes(bytes.readerIndex(), shown);
    add(server, PrintableBytes.of(shown, SHOWN_BYTES));
  }

  /**
   * A connection to the server was opened.
   *
   * @param again whether it replaces one that was dropped
   */
  void opened(String server, boolean again) {
    Counts counts = counts(server);
    counts.opened.incrementAndGet();
    if (again) {
      counts.reopened.incrementAndGet();
    }
  }

  /** A connection to the server was dropped, for another reason than the client closing it. */
  void dropped(String server, DropCause cause) {
    counts(server).dropped.incrementAndGet(cause.ordinal());
  }

  /** @return the errors not taken yet, oldest first; none taken twice */
  public List<Error> takeUnreported() {
    if (unreported.isEmpty()) {
      return List.of();
    }
    List<Error> taken = new ArrayList<>();
    for (Error error = unreported.poll(); error != null; error = unreported.poll()) {
      taken.add(error);
    }
    return taken;
  }

  /** @return each server's tally so far, for the servers that a connection was opened to or that sent errors */
  public Map<String, ServerTally> byServer() {
    Map<String, ServerTally> tally = new TreeMap<>();
    byServer.forEach((server, counts) -> tally.put(server, new ServerTally(counts.errors.get(), counts.opened.get(),
        counts.reopened.get(), counts.droppedByCause(), counts.firstReply)));
    return tally;
  }

  private void add(String server, String reply) {
    Counts counts = counts(server);
    counts.errors.incrementAndGet();
    if (counts.firstReply == null) {
      counts.firstReply = reply; // a race between two loops keeps one of the first: either will do
    }
    unreported.add(new Error(server, reply));
  }

  private Counts counts(String server) {
    return byServer.computeIfAbsent(server, s -> new Counts());
  }

  /** A reply's first line, as the server sent it, with its line end. */
  private static String replyLine(MemcacheReply reply) {
    String line;
    if (reply instanceof MetaReply meta) {
      line = meta.code() + (meta.flags().isEmpty() ? "" : " " + meta.flags());
    } else if (reply instanceof MemcacheReply.Status status) {
      line = status.word().name();
    } else if (reply instanceof MemcacheReply.Error error) {
      line = error.kind().name() + (error.message().isEmpty() ? "" : " " + error.message());
    } else if (reply instanceof MemcacheReply.Number number) {
      line = Long.toUnsignedString(number.value());
    } else if (reply instanceof MemcacheReply.Values values && !values.values().isEmpty()) {
      MemcacheReply.Value first = values.values().get(0);
      line = "VALUE " + first.key() + " " + first.flags() + " " + first.data().length;
    } else if (reply instanceof MemcacheReply.StatsLines stats && !stats.stats().isEmpty()) {
      line = "STAT";
    } else {
      line = "END";
    }
    return line + "\r\n";
  }
}
