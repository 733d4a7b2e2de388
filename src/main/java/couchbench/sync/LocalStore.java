package couchbench.sync;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A client's own copy of its database, as PouchDB keeps one: per document, its leaf revisions, each with its history
 * (newest first: "3-c", "2-b", "1-a"). Two leaves are a conflict; the winner is CouchDB's: the longest history,
 * then the greater revision. A local sequence numbers its own edits, for what a push must send.
 */
final class LocalStore {

  private final Map<String, List<List<String>>> leaves = new TreeMap<>();
  private final Map<String, Long> editedAt = new LinkedHashMap<>();
  private long sequence;

  /**
   * Edits a document here: a new revision on its winning leaf (or its first).
   *
   * @param id the document
   * @param hash the new revision's hash, 32 hex digits
   * @return the new revision, e.g. "3-..."
   */
  String edit(String id, String hash) {
    List<List<String>> docLeaves = leaves.computeIfAbsent(id, any -> new ArrayList<>());
    List<String> winner = winner(id);
    List<String> edited = new ArrayList<>();
    edited.add((winner.isEmpty() ? 1 : generation(winner.get(0)) + 1) + "-" + hash);
    edited.addAll(winner);
    docLeaves.remove(winner);
    docLeaves.add(edited);
    editedAt.put(id, ++sequence);
    return edited.get(0);
  }

  /**
   * Takes a revision from the server, with its history: it replaces the leaf it descends from, or is a new leaf
   * (a conflict) when it descends from none.
   *
   * @param id the document
   * @param history its revisions, newest first
   * @return whether it was new here
   */
  boolean receive(String id, List<String> history) {
    List<List<String>> docLeaves = leaves.computeIfAbsent(id, any -> new ArrayList<>());
    for (List<String> leaf : docLeaves) {
      if (leaf.contains(history.get(0))) {
        return false;
      }
    }
    docLeaves.removeIf(leaf -> history.contains(leaf.get(0)));
    docLeaves.add(List.copyOf(history));
    return true;
  }

  /**
   * @param id a document
   * @param rev a revision
   * @return whether this store has it, as a leaf or in a leaf's history
   */
  boolean has(String id, String rev) {
    return leaves.getOrDefault(id, List.of()).stream().anyMatch(leaf -> leaf.contains(rev));
  }

  /**
   * @param id a document
   * @return its winning leaf's history, newest first; empty for a document not here
   */
  List<String> winner(String id) {
    List<String> best = List.of();
    for (List<String> leaf : leaves.getOrDefault(id, List.of())) {
      if (best.isEmpty() || compare(leaf.get(0), best.get(0)) > 0) {
        best = leaf;
      }
    }
    return best;
  }

  /**
   * @param since a local sequence
   * @return the documents edited here after it, each with its leaves' newest revisions
   */
  Map<String, List<String>> editedSince(long since) {
    Map<String, List<String>> edited = new TreeMap<>();
    editedAt.forEach((id, at) -> {
      if (at > since) {
        edited.put(id, leaves.get(id).stream().map(leaf -> leaf.get(0)).toList());
      }
    });
    return edited;
  }

  /**
   * @param id a document
   * @param rev one of its leaves' newest revision
   * @return that leaf's history, newest first
   */
  List<String> history(String id, String rev) {
    return leaves.get(id).stream().filter(leaf -> leaf.get(0).equals(rev)).findFirst().orElseThrow();
  }

  /** @return the last local edit's sequence */
  long sequence() {
    return sequence;
  }

  /** @return every document here, by id */
  List<String> ids() {
    return List.copyOf(leaves.keySet());
  }

  /** @return every document here, with the set of its leaves' newest revisions */
  Map<String, TreeSet<String>> leafRevisions() {
    Map<String, TreeSet<String>> all = new TreeMap<>();
    leaves.forEach((id, docLeaves) -> all.put(id, new TreeSet<>(docLeaves.stream().map(leaf -> leaf.get(0))
        .toList())));
    return all;
  }

  /** @return the documents here with more than one leaf */
  long conflicts() {
    return leaves.values().stream().filter(docLeaves -> docLeaves.size() > 1).count();
  }

  /**
   * @param rev e.g. "3-abc"
   * @return its generation, 3
   */
  static int generation(String rev) {
    return Integer.parseInt(rev.substring(0, rev.indexOf('-')));
  }

  // CouchDB's order of revisions: by generation, then by the hash as a string.
  private static int compare(String a, String b) {
    int byGeneration = Integer.compare(generation(a), generation(b));
    return byGeneration != 0 ? byGeneration : a.substring(a.indexOf('-')).compareTo(b.substring(b.indexOf('-')));
  }
}
