package couchbench.memcache.codec;

/** What a server sent, shown in a message: printable ASCII as it is, line ends as \r and \n, other bytes as \xNN. */
public final class PrintableBytes {

  private PrintableBytes() {}

  /**
   * @param bytes what a server sent
   * @param most how many of its first bytes to show
   * @return them, escaped so that they fit in a quoted, one-line message
   */
  public static String of(byte[] bytes, int most) {
    StringBuilder shown = new StringBuilder();
    for (int i = 0; i < Math.min(bytes.length, most); i++) {
      int b = bytes[i] & 0xff;
      switch (b) {
        case '\r' -> shown.append("\\r");
        case '\n' -> shown.append("\\n");
        case '\\' -> shown.append("\\\\");
        case '"' -> shown.append("\\\"");
        default -> shown.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b));
      }
    }
    return shown.toString();
  }
}
