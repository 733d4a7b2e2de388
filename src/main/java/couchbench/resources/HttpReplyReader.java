package couchbench.resources;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads HTTP/1.1 replies, one after another, from a kept-alive connection: the status line, the headers it needs
 * (Content-Length, Transfer-Encoding, Connection, Content-Type) and the body, by its length, in chunks, or up to the
 * connection's end. Each read of the socket waits only for what is left of the reply's deadline.
 */
final class HttpReplyReader {

  private static final int MAX_LINE = 8192;

  /**
   * A reply read whole.
   *
   * @param status its HTTP status
   * @param contentType its Content-Type, "" without one
   * @param body its body, unchunked
   * @param keepAlive whether the connection can carry the next request
   */
  record Reply(int status, String contentType, byte[] body, boolean keepAlive) {}

  /** Sets how long the next read of the connection may wait, in ms (a socket's SO_TIMEOUT). */
  interface ReadTimeout {
    void set(int millis) throws SocketException;
  }

  private final InputStream in;
  private final ReadTimeout readTimeout;
  private final byte[] buffer = new byte[8192];
  private int position;
  private int limit;
  private long deadline;

  HttpReplyReader(Socket socket) throws IOException {
    this(socket.getInputStream(), socket::setSoTimeout);
  }

  HttpReplyReader(InputStream in, ReadTimeout readTimeout) {
    this.in = in;
    this.readTimeout = readTimeout;
  }

  /**
   * @param deadline when the whole reply must have come, on {@link System#nanoTime()}'s clock
   * @return the next reply on the connection
   * @throws SocketTimeoutException when it did not come whole by the deadline
   * @throws IOException when the connection ends before it does, or what comes is not an HTTP/1.x reply
   */
  Reply read(long deadline) throws IOException {
    this.deadline = deadline;
    String statusLine = line();
    // "HTTP/1.1 200 OK": the version, a space, three digits.
    if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ') {
      throw new IOException("a reply that is not HTTP/1.x: '" + shortened(statusLine) + "'");
    }
    int status = status(statusLine);
    boolean keepAlive = statusLine.charAt(7) == '1';
    long length = -1;
    boolean chunked = false;
    String contentType = "";
    for (String header = line(); !header.isEmpty(); header = line()) {
      int colon = header.indexOf(':');
      if (colon <= 0) {
        throw new IOException("a reply header that is not 'Name: value': '" + shortened(header) + "'");
      }
      String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = header.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> length = number(value, 10, "Content-Length");
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).endsWith("chunked");
        case "connection" -> keepAlive = value.equalsIgnoreCase("close") ? false
            : value.equalsIgnoreCase("keep-alive") || keepAlive;
        case "content-type" -> contentType = value;
        default -> { }
      }
    }
    if (status / 100 == 1 || status == 204 || status == 304) {
      return new Reply(status, contentType, new byte[0], keepAlive);
    }
    if (chunked) {
      return new Reply(status, contentType, chunks(), keepAlive);
    }
    if (length >= 0) {
      return new Reply(status, contentType, bytes(length), keepAlive);
    }
    return new Reply(status, contentType, toTheEnd(), false);
  }

  private static int status(String statusLine) throws IOException {
    int status = (int) number(statusLine.substring(9, 12), 10, "the status");
    if (status < 100) {
      throw new IOException("a reply whose status is not one: '" + shortened(statusLine) + "'");
    }
    return status;
  }

  private byte[] chunks() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (long size = chunkSize(); size > 0; size = chunkSize()) {
      body.writeBytes(bytes(size));
      if (!line().isEmpty()) {
        throw new IOException("a reply chunk longer than its size said");
      }
    }
    // Trailers, if any, up to the blank line that ends the reply.
    while (!line().isEmpty()) {
      continue;
    }
    return body.toByteArray();
  }

  private long chunkSize() throws IOException {
    String line = line();
    int extension = line.indexOf(';');
    return number((extension < 0 ? line : line.substring(0, extension)).trim(), 16, "a chunk's size");
  }

  private static long number(String text, int radix, String what) throws IOException {
    try {
      long value = Long.parseLong(text, radix);
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IOException("a reply whose " + what + " is not a number: '" + shortened(text) + "'");
  }

  // A line up to CRLF (a bare LF too), without it.
  private String line() throws IOException {
    StringBuilder line = new StringBuilder();
    while (true) {
      if (position == limit && !fill()) {
        throw new IOException("the connection closed before the reply's end");
      }
      byte next = buffer[position++];
      if (next == '\n') {
        int end = line.length();
        return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
      }
      if (line.length() == MAX_LINE) {
        throw new IOException("a reply line longer than " + MAX_LINE + " bytes");
      }
      line.append((char) (next & 0xff));
    }
  }

  private byte[] bytes(long count) throws IOException {
    if (count > Integer.MAX_VALUE - 8) {
      throw new IOException("a reply body of " + count + " bytes, more than a read holds");
    }
    byte[] bytes = new byte[(int) count];
    int filled = 0;
    while (filled < count) {
      if (position == limit && !fill()) {
        throw new IOException("the connection closed " + (count - filled) + " bytes before the reply's end");
      }
      int take = Math.min(limit - position, bytes.length - filled);
      System.arraycopy(buffer, position, bytes, filled, take);
      position += take;
      filled += take;
    }
    return bytes;
  }

  private byte[] toTheEnd() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (position < limit || fill()) {
      body.write(buffer, position, limit - position);
      position = limit;
    }
    return body.toByteArray();
  }

  // More bytes from the connection, waiting no longer than the reply's deadline; false at its end.
  private boolean fill() throws IOException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new SocketTimeoutException("no whole reply in time");
    }
    readTimeout.set((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
    int read = in.read(buffer);
    if (read < 0) {
      return false;
    }
    position = 0;
    limit = read;
    return true;
  }

  private static String shortened(String text) {
    String printable = text.replaceAll("[^\\x20-\\x7e]", "?");
    return printable.length() > 60 ? printable.substring(0, 60) + "..." : printable;
  }
}
