package couchbench.feed;

/**
 * One row of a changes feed: a document's change as CouchDB reports it.
 *
 * @param seq the row's sequence, opaque (CouchDB: "12-g1AAA..."; pouchdb-server: a number); null where
 *     seq_interval left it out
 * @param id the document's id
 * @param rev its revision after the change (the first of the row's changes)
 * @param deleted whether the change deleted it
 * @param withDoc whether the row carried the document (include_docs)
 */
public record Change(String seq, String id, String rev, boolean deleted, boolean withDoc) {}
