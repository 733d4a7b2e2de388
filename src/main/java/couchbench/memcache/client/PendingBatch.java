package couchbench.memcache.client;

import java.util.List;

/**
 * Requests of one connection written together, as one message: the reply matcher takes each in turn, and the batch
 * leaves as one buffer.
 *
 * @param requests the requests, in the order they are written
 */
record PendingBatch(List<PendingRequest> requests) {}
