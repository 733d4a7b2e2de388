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
    return String.valueOf(message);
  }

  private static String value(MemcacheReply.Value value) {
    String data = value.data().length <= 64
        ? new String(value.data(), StandardCharsets.UTF_8)
        : value.data().length + " bytes";
    return value.key() + "/" + Integer.toUnsignedString(value.flags()) + "/"
        + (value.casUnique() == -1 ? "-" : Long.toUnsignedString(value.casUnique())) + "=" + data;
  }
}
