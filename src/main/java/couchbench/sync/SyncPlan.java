package couchbench.sync;

import couchbench.couchdb.DatabaseNames;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import java.time.Duration;
import java.util.Locale;

/**
 * A Sync run's parameters: clients syncing as PouchDB does, each with its own documents, in groups that share a
 * database (a team's devices), each editing between its syncs, while an editor edits on the server. With -Dinjector,
 * each injector runs its share of the clients and the edits, in databases of its own: each compares its own clients
 * with the server, and Merge adds up what they found.
 *
 * @param clients virtual users, each one client (this injector's share)
 * @param clientsPerDatabase clients sharing a database: each pulls the others' documents
 * @param docsPerClient documents each client creates in its first sync
 * @param syncs syncs each client makes, one every syncInterval
 * @param syncInterval the pause between a client's syncs
 * @param editsPerSync documents a client edits before each sync after the first: its own, or one of its group's
 * @param serverEdits documents edited on the server (a PUT each) while the clients sync (this injector's share)
 * @param dropEvery with N above 0, every N-th sync of each client is cut after the first page of its pull, as an app
 *     closed mid-sync: its next sync resumes from its checkpoints on the server
 * @param bulkGet whether pulls fetch through _bulk_get when the server has it (-DbulkGet, default true); false makes
 *     them fetch as PouchDB does without it: _all_docs by keys for first revisions, GET ?open_revs= for the rest
 * @param seed the clients' draws
 * @param prefix the databases' names: prefix_0, prefix_1, ... (with -Dinjector, e.g. couchbench_sync_injector0of2)
 */
public record SyncPlan(int clients, int clientsPerDatabase, int docsPerClient, int syncs, Duration syncInterval,
    int editsPerSync, int serverEdits, int dropEvery, boolean bulkGet, long seed, String prefix) {

  /**
   * Reads the plan.
   *
   * @param settings clients, clientsPerDatabase, docsPerClient, syncs, syncInterval, editsPerSync, serverEdits, seed,
   *     dropEvery, bulkGet, database
   * @return the plan
   * @throws couchbench.startup.SettingsException naming the setting and what to give, before any load
   */
  public static SyncPlan from(Settings settings) {
    InjectorShare share = InjectorShare.from(settings);
    int allClients = settings.intValue("clients", 100, 1);
    int clients = share.atLeastOne("clients", allClients);
    return new SyncPlan(clients, Math.min(clients, settings.intValue("clientsPerDatabase", 10, 1)),
        settings.intValue("docsPerClient", 10, 1), settings.intValue("syncs", 5, 1),
        Duration.ofMillis(Math.round(settings.doubleValue("syncInterval", 2) * 1000)),
        settings.intValue("editsPerSync", 2, 0), (int) share.share(settings.intValue("serverEdits", allClients, 0)),
        settings.intValue("dropEvery", 0, 0), settings.booleanValue("bulkGet", true),
        settings.intValue("seed", 42, 0) + share.index(),
        DatabaseNames.fromSettings(settings, "couchbench_sync") + share.databaseSuffix());
  }

  /** @return the databases, one per group of clients */
  public int databases() {
    return (clients + clientsPerDatabase - 1) / clientsPerDatabase;
  }

  /**
   * @param number a database, from 0
   * @return its name
   */
  public String database(int number) {
    return prefix + "_" + number;
  }

  /**
   * @param client a client, from 0
   * @return the database it syncs with
   */
  public int databaseOf(int client) {
    return client / clientsPerDatabase;
  }

  /** @return the run's load, in a line */
  public String describe() {
    return String.format(Locale.ROOT, "%,d clients in %,d databases of %d, each creating %d documents and syncing %d"
            + " times, %.1f s apart, editing %d documents before each sync after the first; %,d edits on the server%s",
        clients, databases(), clientsPerDatabase, docsPerClient, syncs, syncInterval.toMillis() / 1000.0,
        editsPerSync, serverEdits, dropEvery == 0 ? "" : "; every " + dropEvery + "th sync cut mid-pull");
  }
}
