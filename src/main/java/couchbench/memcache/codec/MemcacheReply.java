package couchbench.memcache.codec;

import java.util.List;
import java.util.Map;

/** A reply of the memcache text protocol, as the decoder reads it; a {@link MetaReply} is one of the meta protocol's. */
public sealed interface MemcacheReply
    permits MemcacheReply.Status,
        MemcacheReply.Values,
        MemcacheReply.Number,
        MemcacheReply.StatsLines,
        MemcacheReply.Error,
        MemcacheReply.NoReply,
        MetaReply {

  /** The one-word replies. */
  enum StatusWord {
    STORED, NOT_STORED, EXISTS, NOT_FOUND, DELETED, TOUCHED, OK
  }

  /** The error replies: unknown command, bad request, server failure. */
  enum ErrorKind {
    ERROR, CLIENT_ERROR, SERVER_ERROR
  }

  /**
   * A one-word reply such as STORED or NOT_FOUND.
   *
   * @param word the word
   */
  record Status(StatusWord word) implements MemcacheReply {}

  /**
   * One value of a retrieval reply.
   *
   * @param key the key
   * @param flags the flags stored with it
   * @param data the data block
   * @param casUnique the cas unique for gets, -1 for get
   */
  record Value(String key, int flags, byte[] data, long casUnique) {}

  /**
   * {@code VALUE ...} blocks up to {@code END}; no values when every key missed.
   *
   * @param values the values found, in the server's order
   */
  record Values(List<Value> values) implements MemcacheReply {}

  /**
   * The new value after incr/decr, an unsigned 64-bit number.
   *
   * @param value the number (use Long.toUnsignedString to print it)
   */
  record Number(long value) implements MemcacheReply {}

  /**
   * {@code STAT <name> <value>} lines up to {@code END}.
   *
   * @param stats name to value, in the server's order
   */
  record StatsLines(Map<String, String> stats) implements MemcacheReply {}

  /**
   * ERROR, CLIENT_ERROR or SERVER_ERROR, with the server's text.
   *
   * @param kind which error
   * @param message the text after the word, possibly empty
   */
  record Error(ErrorKind kind, String message) implements MemcacheReply {}

  /** What a noreply request gets: nothing, as soon as it is written. */
  record NoReply() implements MemcacheReply {}
}
