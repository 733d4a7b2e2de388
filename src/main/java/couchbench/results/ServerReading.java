package couchbench.results;

/**
 * One figure a server gave in the sampler's last second, in base units, as live metrics serve it: a counter's running
 * total (Prometheus takes its rate), a gauge's value.
 *
 * @param metric its series' name after {@code couchbench_server_}, e.g. {@code process_resident_memory_bytes}
 * @param server what gave it, as the page names it, e.g. "couchdb" or "memcached 127.0.0.1:11211"
 * @param value its value
 * @param counter whether it only grows (a total), else a gauge
 */
public record ServerReading(String metric, String server, double value, boolean counter) {}
