package couchbench.memcache.internal;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MetaReply;
import java.nio.charset.StandardCharsets;

/** A reply as Gatling takes it: its response code in the report, and the body its core body checks read. */
public final class ReplyForGatling {

  private static final byte[] NONE = new byte[0];

  private ReplyForGatling() {}

  /**
   * The reply's response code in the report: the status word, VALUE, END (a miss), NUMBER,
   * STATS, the error word, NOREPLY, or a meta reply's code (VA, HD, EN, NS, EX, NF, MN, ME).
   */
  public static String responseCode(MemcacheReply reply) {
    if (reply instanceof MetaReply meta) {
      return meta.code().name();
    }
    if (reply instanceof MemcacheReply.Status status) {
      return status.word().name();
    }
    if (reply instanceof MemcacheReply.Values values) {
      return values.values().isEmpty() ? "END" : "VALUE";
    }
    if (reply instanceof MemcacheReply.Error error) {
      return error.kind().name();
    }
    if (reply instanceof MemcacheReply.Number) {
      return "NUMBER";
    }
    return reply instanceof MemcacheReply.StatsLines ? "STATS" : "NOREPLY";
  }

  /**
   * The bytes that body checks (bodyBytes, bodyString, substring, regex) see: the first value's
   * data for a retrieval, the number for incr/decr, a meta VA's data block, else the reply's code.
   */
  static byte[] checkedBody(MemcacheReply reply) {
    if (reply instanceof MetaReply meta && meta.data() != null) {
      return meta.data();
    }
    if (reply instanceof MemcacheReply.Values values) {
      return values.values().isEmpty() ? NONE : values.values().get(0).data();
    }
    if (reply instanceof MemcacheReply.Number number) {
      return Long.toUnsignedString(number.value()).getBytes(StandardCharsets.US_ASCII);
    }
    return responseCode(reply).getBytes(StandardCharsets.US_ASCII);
  }
}
