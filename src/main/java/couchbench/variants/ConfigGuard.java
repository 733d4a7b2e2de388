package couchbench.variants;

import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The CouchDB settings a run changes, kept safe: each one's value on every node read before the first change and
 * written to a {@link RestoreFile}; a variant's values (or a simulation's, such as Tenants' -Diterations) applied and
 * read back (a setting that did not take stops the run); the originals put back after the last round or the load, on
 * failure and on Ctrl-C ({@link #restore}).
 */
public final class ConfigGuard {

  private final Map<String, ServerConfig> servers;
  private final Map<String, RestoreFile> originals;
  private boolean restored;

  private ConfigGuard(Map<String, ServerConfig> servers, Map<String, RestoreFile> originals) {
    this.servers = servers;
    this.originals = originals;
  }

  /**
   * Reads the settings' values on every node of every server, after putting back what a killed run left, and writes
   * each server's restore file before anything is changed.
   *
   * @param targets the servers the variants load
   * @param keys the settings some variant changes
   * @return the guard
   * @throws VariantsException for a server without _config, a login that is not an admin's, a setting CouchDB does
   *     not know
   */
  public static ConfigGuard take(List<CouchTarget> targets, Set<ConfigKey> keys) {
    Map<String, ServerConfig> servers = new LinkedHashMap<>();
    Map<String, RestoreFile> originals = new LinkedHashMap<>();
    for (CouchTarget target : targets) {
      if (servers.containsKey(target.baseUrl())) {
        continue;
      }
      RestoreFile.restoreIfLeft(target);
      ServerConfig config = ServerConfig.of(target);
      List<RestoreFile.Original> found = new ArrayList<>();
      for (String node : config.nodes()) {
        for (ConfigKey key : keys) {
          found.add(new RestoreFile.Original(node, key.section(), key.key(), config.value(node, key).orElse(null)));
        }
      }
      keys.stream().filter(key -> found.stream().noneMatch(original -> original.configKey().equals(key)
          && original.value() != null)).forEach(config::checkKnownUnset);
      RestoreFile file = new RestoreFile(target.baseUrl(), ProcessHandle.current().pid(), List.copyOf(found));
      file.write();
      servers.put(target.baseUrl(), config);
      originals.put(target.baseUrl(), file);
    }
    return new ConfigGuard(servers, originals);
  }

  /**
   * Sets every setting on every node of the server to the variant's value, or to the original where the variant gives
   * none, and reads each back. CouchDB applies a change at once: a change of [couchdb] js_engine ends the pooled query
   * server processes, and the next view runs in the new engine (checked on CouchDB 3.5: docs/variants.md).
   *
   * @param variant the variant whose rounds come next
   * @param target the server they load
   * @throws VariantsException when a setting is refused or does not read back as set
   */
  void apply(Variant variant, CouchTarget target) {
    apply(variant.config(), target, "variant " + variant.name());
  }

  /**
   * Sets the settings given on every node of the server, and the others taken to their originals, and reads each back.
   *
   * @param values the settings' values; a setting taken but not given here gets its original
   * @param target the server, one of those taken
   * @param by what asks for the values, named when one does not take, e.g. "-Diterations"
   * @throws VariantsException when a setting is refused or does not read back as set
   */
  public void apply(Map<ConfigKey, String> values, CouchTarget target, String by) {
    ServerConfig config = servers.get(target.baseUrl());
    for (RestoreFile.Original original : originals.get(target.baseUrl()).settings()) {
      ConfigKey key = original.configKey();
      Optional<String> wanted = Optional.ofNullable(values.get(key)).or(original::original);
      Optional<String> now = config.value(original.node(), key);
      if (now.equals(wanted)) {
        continue;
      }
      config.set(original.node(), key, wanted);
      Optional<String> readBack = config.value(original.node(), key);
      if (!readBack.equals(wanted)) {
        throw new VariantsException(by + ": " + key + " did not take on node "
            + original.node() + " of " + config.server() + ": set to " + key.shown(wanted) + ", it reads back "
            + (readBack.isEmpty() ? "(none)" : key.shown(readBack)));
      }
    }
  }

  /**
   * @param target a server taken
   * @param key a setting taken
   * @return its value on the server's first node as found before any change; empty for CouchDB's built-in default
   */
  public Optional<String> original(CouchTarget target, ConfigKey key) {
    return originals.get(target.baseUrl()).settings().stream().filter(found -> found.configKey().equals(key))
        .findFirst().flatMap(RestoreFile.Original::original);
  }

  /**
   * Puts every setting back as it was found on every node, says so in one line per server, and removes the restore
   * files; does nothing the second time. A server that cannot be reached keeps its restore file, for the next run.
   */
  public synchronized void restore() {
    if (restored) {
      return;
    }
    restored = true;
    originals.forEach((server, file) -> {
      ServerConfig config = servers.get(server);
      try {
        for (RestoreFile.Original original : file.settings()) {
          if (!config.value(original.node(), original.configKey()).equals(original.original())) {
            config.set(original.node(), original.configKey(), original.original());
          }
        }
        file.remove();
        Console.say("settings of " + config.server() + " restored: " + file.settings().stream()
            .map(original -> original.configKey() + " = " + original.configKey().shown(original.original()))
            .distinct().collect(Collectors.joining(", ")));
      } catch (RuntimeException e) {
        Console.say("settings of " + config.server() + " NOT restored (" + e.getMessage() + "): the next run against"
            + " it restores them from " + RestoreFile.path(server));
      }
    });
  }
}
