package couchbench.memcache.codec;

/**
 * What {@link MemcacheTextDecoder} emits instead of a reply when the input is not a valid reply. After it the
 * decoder skips all further input: the connection can no longer be trusted and should be closed.
 *
 * @param problem what was wrong, without any of the reply's data, e.g. "unknown reply line"
 * @param truncated true when the input was not wrong but ended (the channel closed) in the middle of a reply
 */
public record MemcacheDecoderFailure(String problem, boolean truncated) {}
