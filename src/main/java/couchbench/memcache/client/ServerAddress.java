package couchbench.memcache.client;

import java.net.InetSocketAddress;

/** A memcache server as a user writes it: {@code host:port} or {@code [v6]:port}. */
public final class ServerAddress {

  private ServerAddress() {}

  /**
   * Parses "host:port" or "[v6]:port" into an unresolved address.
   *
   * @param server the server as a user writes it
   * @return the address, unresolved (no DNS lookup here)
   * @throws IllegalArgumentException when it is neither form
   */
  public static InetSocketAddress parse(String server) {
    int colon = server.lastIndexOf(':');
    if (colon <= 0 || colon == server.length() - 1) {
      throw new IllegalArgumentException("not host:port: " + server);
    }
    String host = server.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.isBlank() || host.contains(" ") || (host.contains(":") && !server.startsWith("["))) {
      throw new IllegalArgumentException("not host:port: " + server);
    }
    int port;
    try {
      port = Integer.parseInt(server.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not host:port: " + server, e);
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + server);
    }
    return InetSocketAddress.createUnresolved(host, port);
  }
}
