package couchbench.targets;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A server process that couchbench started on this machine, as far as resource figures need it.
 *
 * @param name the program, e.g. "memcached" or "pouchdb-server"
 * @param pid the server's own pid (not its wrapper's), whose CPU time /proc/PID/stat gives
 * @param dataDirectory where it keeps its data, if anywhere (memcached keeps none)
 */
public record LocalServer(String name, long pid, Optional<Path> dataDirectory) {}
