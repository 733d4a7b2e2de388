package couchbench.results;

import couchbench.scaleout.InjectorShare;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The injectors of a run that left no results (killed, evicted, lost with its machine): which they are, why, as the
 * scripts say it, and each one's key file where it is found (a part file of the keys it had flushed), with its whole
 * keys.
 */
final class LostInjectors {

  /** Said of an injector that is missing without a reason given. */
  static final String NO_RESULTS = "no results";

  /** A lost injector's part file last flushed this long before the others' runs started is an older run's. */
  private static final Duration LOST_KEYS_SLACK = Duration.ofMinutes(1);

  /** A lost injector's key file where it was found (null when it was not), and its whole keys. */
  record LostKeys(String keyFile, Path found, long keys) {}

  /** A lost injector: its share, why, its key files. */
  record Lost(InjectorShare share, String why, List<LostKeys> keyFiles) {}

  private LostInjectors() {}

  /**
   * Why injectors left no results, as the scripts say it.
   *
   * @param given "I=why;J=why", or null
   * @return why by index
   */
  static Map<Integer, String> reasons(String given) {
    Map<Integer, String> reasons = new TreeMap<>();
    if (given == null || given.isBlank()) {
      return reasons;
    }
    for (String entry : given.split(";")) {
      String[] parts = entry.split("=", 2);
      try {
        if (parts.length == 2 && !parts[1].isBlank()) {
          reasons.put(Integer.parseInt(parts[0].trim()), parts[1].trim());
          continue;
        }
      } catch (NumberFormatException e) {
        // the line below
      }
      throw new ResultsException("-Dlost=" + given + ": \"" + entry + "\" is not I=why (expected e.g. -Dlost=\"2=did"
          + " not end in 300 s;3=ended with exit code 137\")");
    }
    return reasons;
  }

  /**
   * @param injectors the injectors that ended
   * @param reasons why injectors left no results, by index
   * @param leftOut the folders given that held no results
   * @return the injectors of the run that left no results, each with why, and their key files where they are found
   */
  static List<Lost> of(List<InjectorRun> injectors, Map<Integer, String> reasons, List<Path> leftOut) {
    int count = injectors.get(0).share().count();
    Set<Integer> ended = injectors.stream().map(injector -> injector.share().index()).collect(Collectors.toSet());
    Instant since = injectors.stream().map(injector -> Instant.parse(injector.results().run().start()))
        .min(Comparator.naturalOrder()).orElseThrow().minus(LOST_KEYS_SLACK);
    List<Lost> lost = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      if (!ended.contains(index)) {
        InjectorShare share = InjectorShare.parse("injector", index + "/" + count);
        lost.add(new Lost(share, reasons.getOrDefault(index, NO_RESULTS), keyFiles(injectors, share, leftOut, since)));
      }
    }
    return lost;
  }

  /**
   * @param lost the lost injectors
   * @return their key files found, to be joined into the merged ones
   */
  static List<MergedKeyFiles.Part> keyParts(List<Lost> lost) {
    return lost.stream().flatMap(injector -> injector.keyFiles().stream()).filter(keys -> keys.found() != null)
        .map(keys -> new MergedKeyFiles.Part(keys.keyFile(), keys.found(), keys.keys())).toList();
  }

  /**
   * A lost injector's key files: its own file name (the key file, or a part file of it) where the ended injectors'
   * files are, and where theirs are relative to their run folders, from each folder left out; the newest one flushed
   * since the run started.
   */
  private static List<LostKeys> keyFiles(List<InjectorRun> injectors, InjectorShare share, List<Path> leftOut,
      Instant since) {
    Map<String, Set<Path>> places = new LinkedHashMap<>();
    for (InjectorRun injector : injectors) {
      for (Results.KeyFile keys : injector.results().keyFiles()) {
        Path relative = Path.of(keys.path()).getParent();
        Set<Path> dirs = places.computeIfAbsent(keys.keyFile(), name -> new LinkedHashSet<>());
        dirs.add(injector.folder().resolve(keys.path()).toAbsolutePath().normalize().getParent());
        leftOut.forEach(folder -> dirs.add((relative == null ? folder : folder.resolve(relative)).toAbsolutePath()
            .normalize()));
      }
    }
    List<LostKeys> found = new ArrayList<>();
    places.forEach((keyFile, dirs) -> {
      String own = share.ownFile(Path.of(keyFile)).getFileName().toString();
      Pattern names = Pattern.compile(Pattern.quote(own) + "(\\.\\d+\\.part)?");
      Optional<Path> newest = dirs.stream().filter(Files::isDirectory).flatMap(LostInjectors::list)
          .filter(file -> names.matcher(file.getFileName().toString()).matches())
          .filter(file -> !modified(file).isBefore(since)).max(Comparator.comparing(LostInjectors::modified));
      found.add(new LostKeys(keyFile, newest.orElse(null), newest.map(MergedKeyFiles::wholeKeys).orElse(0L)));
    });
    return found;
  }

  private static Stream<Path> list(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList().stream();
    } catch (IOException e) {
      return Stream.empty();
    }
  }

  private static Instant modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toInstant();
    } catch (IOException e) {
      return Instant.EPOCH;
    }
  }
}
