package couchbench.memcache.codec;

import java.util.List;

/**
 * Requests written together, as a pipelining client writes them: {@link RequestBatchEncoder} puts them in one buffer.
 *
 * @param requests the requests, text and meta alike, in the order they go out
 */
public record RequestBatch(List<MemcacheRequest> requests) {}
