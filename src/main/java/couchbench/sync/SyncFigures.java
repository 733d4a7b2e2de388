package couchbench.sync;

/**
 * A Sync run's own figures, for results.json and its page; each request's and each sync's time are Gatling's.
 *
 * @param load the run's load, in a line
 * @param syncs the syncs made
 * @param failedSyncs those with a failed request
 * @param revisionsPushed revisions the clients pushed
 * @param revisionsPulled revisions the clients pulled
 * @param pullsThrough how the pulls fetched the revisions they lacked: through _bulk_get, or without it and why
 * @param reachMicros for each revision a client pushed, the time until each other client of its database pulled it,
 *     an encoded HdrHistogram in microseconds
 * @param cuts syncs cut mid-pull (-DdropEvery), each resumed from its checkpoints at the client's next sync
 * @param readAgain revisions a resumed pull read in _changes again and found already held: not pulled twice
 * @param serverEdits edits made on the server
 * @param serverEditsRefused edits on the server refused (409) for a revision a client pushed between read and write
 * @param serverDocs documents on the server after the load
 * @param serverConflicts of those, the ones with more than one leaf
 * @param clientConflicts the documents with more than one leaf in the clients' stores, over all clients
 * @param clientsCompared the clients compared with the server after their last pull
 * @param clientsEqual those holding exactly the server's documents, leaves and winners
 * @param firstDifference the first difference found, "" when none
 */
public record SyncFigures(String load, long syncs, long failedSyncs, long revisionsPushed, long revisionsPulled,
    String pullsThrough, String reachMicros, long cuts, long readAgain, long serverEdits, long serverEditsRefused, long serverDocs,
    long serverConflicts, long clientConflicts, int clientsCompared,
    int clientsEqual, String firstDifference) {}
