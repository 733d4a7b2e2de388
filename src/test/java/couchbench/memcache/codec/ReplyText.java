package couchbench.memcache.codec;

import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

/** Decoded messages as text, so that tests compare them with assertEquals (records compare arrays by identity). */
final class ReplyText {

  private ReplyText() {}

  static String of(Object message) {
    if (message instanceof MemcacheReply.Values values) {
      return values.values().stream().map(ReplyText::value).collect(Collectors.joining(", ", "Values[", "]"));
    }
    if (message instanceof MetaReply meta) {
      return meta(meta.code(), meta.flags(), meta.opaque(), meta.data());
    }
    return String.valueOf(message);
  }

  /** A meta reply as text: {@code Meta[VA flags=c5 O7, opaque=7, data=abc]}. */
  static String meta(MetaReply.Code code, String flags, int opaque, byte[] data) {
    return "Meta[" + code + " flags=" + flags + ", opaque=" + opaque
        + (data == null ? "" : ", data=" + new String(data, StandardCharsets.UTF_8)) + "]";
  }

  private static String value(MemcacheReply.Value value) {
    String data = value.data().length <= 64
        ? new String(value.data(), StandardCharsets.UTF_8)
        : value.data().length + " bytes";
    return value.key() + "/" + Integer.toUnsignedString(value.flags()) + "/"
        + (value.casUnique() == -1 ? "-" : Long.toUnsignedString(value.casUnique())) + "=" + data;
  }
}
