package couchbench.results;

import couchbench.data.KeyFile;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The key files of a run's injectors, each joined into one in the merged folder, named as the runs' -DkeyFile names
 * it: an injector's file is where its results.json says, relative to its run folder; a lost injector's, where it was
 * found. A joined file that holds other than the keys the injectors were acknowledged is said as a problem.
 */
final class MergedKeyFiles {

  /**
   * A file of one injector's keys, to be joined.
   *
   * @param keyFile the -DkeyFile it is a part of
   * @param file where it is
   * @param keys the whole keys it holds, as its injector said or as counted
   */
  record Part(String keyFile, Path file, long keys) {}

  private MergedKeyFiles() {}

  /**
   * @param injectors the injectors that ended, whose results.json name their key files
   * @param lostParts the key files found of injectors lost
   * @param out the merged folder, where the joined files go
   * @param problems where a joined file that does not hold the keys acknowledged is said
   * @return the joined key files, as the merged results.json lists them
   */
  static List<Results.KeyFile> join(List<InjectorRun> injectors, List<Part> lostParts, Path out,
      List<String> problems) {
    List<Part> parts = new ArrayList<>();
    for (InjectorRun injector : injectors) {
      for (Results.KeyFile keys : injector.results().keyFiles()) {
        parts.add(new Part(keys.keyFile(), injector.folder().resolve(keys.path()), keys.keys()));
      }
    }
    parts.addAll(lostParts);
    Map<String, List<Path>> byName = new LinkedHashMap<>();
    Map<String, Long> expected = new LinkedHashMap<>();
    for (Part part : parts) {
      byName.computeIfAbsent(part.keyFile(), k -> new ArrayList<>()).add(part.file());
      expected.merge(part.keyFile(), part.keys(), Long::sum);
    }
    List<Results.KeyFile> merged = new ArrayList<>();
    byName.forEach((name, files) -> {
      Path target = out.resolve(Path.of(name).getFileName());
      long keys = join(files, target);
      if (keys != expected.get(name)) {
        problems.add("key file " + target + " holds " + keys + " keys, the injectors' results say " + expected.get(name)
            + " were acknowledged: a key file was changed or cut after its run");
      }
      merged.add(new Results.KeyFile(name, target.getFileName().toString(), keys));
    });
    return merged;
  }

  /**
   * @param file a key file or part file
   * @return its keys, a cut last line left out
   * @throws ResultsException when it cannot be read
   */
  static long wholeKeys(Path file) {
    try (BufferedWriter nowhere = new BufferedWriter(Writer.nullWriter())) {
      return copyKeys(file, nowhere);
    } catch (IOException e) {
      throw new ResultsException("key file " + file + ": cannot be read (" + e.getMessage() + ")");
    }
  }

  /** Writes the whole key lines of every part under one header; returns the keys written. */
  private static long join(List<Path> parts, Path target) {
    long keys = 0;
    try (BufferedWriter writer = Files.newBufferedWriter(target, StandardCharsets.UTF_8)) {
      writer.write(KeyFile.HEADER + "\n");
      for (Path part : parts) {
        keys += copyKeys(part, writer);
      }
    } catch (IOException e) {
      throw new ResultsException("key file " + target + ": cannot be joined from " + parts + " (" + e.getMessage()
          + ")");
    }
    return keys;
  }

  /** Copies a key file's keys, without its header and a cut last line (a killed injector's part file); counts them. */
  private static long copyKeys(Path part, BufferedWriter writer) throws IOException {
    boolean cut = KeyFile.lastLineCut(part);
    long keys = 0;
    try (BufferedReader reader = Files.newBufferedReader(part, StandardCharsets.UTF_8)) {
      reader.readLine(); // the header
      String line = reader.readLine();
      while (line != null) {
        String next = reader.readLine();
        if (next == null && cut) {
          break;
        }
        if (!line.isEmpty()) {
          writer.write(line);
          writer.write('\n');
          keys++;
        }
        line = next;
      }
    }
    return keys;
  }
}
