package couchbench.resources;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The process that listens on a TCP port of this machine, found as {@code ss -ltnp} finds it: the
 * socket's inode in {@code /proc/net/tcp} (or tcp6), then the process holding a descriptor of that
 * socket. Another user's process is found only by root; elsewhere than on Linux, none is.
 */
final class PortOwner {

  private static final String LISTEN = "0A";

  private PortOwner() {}

  /**
   * The listening process's pid and name.
   *
   * @param port the TCP port
   * @return the process, empty when none is found
   */
  static Optional<Owner> of(int port) {
    OptionalLong inode = listeningInode(port, Path.of("/proc/net/tcp"));
    if (inode.isEmpty()) {
      inode = listeningInode(port, Path.of("/proc/net/tcp6"));
    }
    return inode.isEmpty() ? Optional.empty() : holder("socket:[" + inode.getAsLong() + "]");
  }

  /**
   * A process found listening.
   *
   * @param pid its pid
   * @param name its program name, e.g. "node" or "beam.smp"
   */
  record Owner(long pid, String name) {}

  /** The inode of the socket listening on a port, from a /proc/net/tcp table. */
  static OptionalLong listeningInode(int port, Path table) {
    List<String> lines;
    try {
      lines = Files.readAllLines(table, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return OptionalLong.empty();
    }
    // "  sl  local_address rem_address   st ... uid  timeout inode": local_address is HEXIP:HEXPORT.
    for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
      String[] fields = line.trim().split("\\s+");
      if (fields.length < 10 || !fields[3].equals(LISTEN)) {
        continue;
      }
      String local = fields[1];
      try {
        if (Integer.parseInt(local.substring(local.lastIndexOf(':') + 1), 16) == port) {
          return OptionalLong.of(Long.parseLong(fields[9]));
        }
      } catch (NumberFormatException e) {
        // not a table line
      }
    }
    return OptionalLong.empty();
  }

  private static Optional<Owner> holder(String socket) {
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path process : processes) {
        if (holds(process, socket)) {
          String name = Files.readString(process.resolve("comm"), StandardCharsets.UTF_8).trim();
          return Optional.of(new Owner(Long.parseLong(process.getFileName().toString()), name));
        }
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  private static boolean holds(Path process, String socket) {
    try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(process.resolve("fd"))) {
      for (Path descriptor : descriptors) {
        if (socket.equals(readLink(descriptor))) {
          return true;
        }
      }
    } catch (IOException e) {
      return false; // another user's process, or one that ended meanwhile
    }
    return false;
  }

  private static String readLink(Path descriptor) {
    try {
      return Files.readSymbolicLink(descriptor).toString();
    } catch (IOException e) {
      return "";
    }
  }
}
