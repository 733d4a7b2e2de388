package couchbench.targets;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A class-data-sharing archive of the dependency jars' classes, for the Gatling JVMs the tests start: without it each
 * of the suite's 200-odd runs reads, parses and verifies some 8,000 classes of Gatling, Scala, Akka and Netty anew. A
 * 1 s MemSet took 4.8-5.8 s from start to end with the archive, 6.1-7.3 s without (December 2026, three rounds each).
 *
 * <p>Made once for a set of jars: the first run records the classes it loads (-XX:DumpLoadedClassList); once it has
 * ended, the next start dumps them (java -Xshare:dump, about 15 s) into target/cds, and every later run maps the
 * archive. The JVM checks each jar's size and time against the archive and, on a mismatch, runs without it and says
 * nothing: a stale or missing archive costs time, never a result. An archive holds jars only, so a child's classpath
 * lists the jars before the folders (target/classes and target/test-classes, whose resources no jar has too).
 */
public final class SharedClassArchive {

  private static final Path FOLDER = Path.of("target", "cds").toAbsolutePath();
  // JDK 17's dump crashes on lambda proxy classes (SystemDictionaryShared::adjust_lambda_proxy_class_dictionary):
  // the list goes without them, and they are made at run time as without an archive.
  private static final String LAMBDA_PROXY = "@lambda-proxy";

  private static Process recording;
  private static boolean failed;

  /**
   * What a child JVM is given.
   *
   * @param options JVM options: the archive's, or the recording of its class list, or none
   * @param classpath the classpath, jars first
   * @param records whether this child records the class list, to be named by {@link #started}
   */
  public record Child(List<String> options, String classpath, boolean records) {}

  private SharedClassArchive() {}

  /**
   * @param classpath the test classpath, path-separated
   * @return the options and classpath of the next child JVM; dumps the archive first when a recorded list is ready
   */
  public static synchronized Child next(String classpath) {
    List<String> jars = new ArrayList<>();
    List<String> folders = new ArrayList<>();
    for (String entry : classpath.split(File.pathSeparator)) {
      (entry.endsWith(".jar") ? jars : folders).add(entry);
    }
    List<String> ordered = new ArrayList<>(jars);
    ordered.addAll(folders);
    String jarsFirst = String.join(File.pathSeparator, ordered);
    String key = Integer.toHexString(key(jars));
    Path archive = FOLDER.resolve(key + ".jsa");
    Path classList = FOLDER.resolve(key + ".classes");
    if (!failed && !Files.exists(archive) && recording != null && !recording.isAlive()) {
      failed = !dump(classList, archive, String.join(File.pathSeparator, jars));
      recording = null;
      if (failed) {
        System.err.println("couchbench tests: no class archive could be made (" + FOLDER.resolve("dump.log")
            + "): the Gatling runs start without one, a second slower each");
      }
    }
    if (Files.exists(archive)) {
      return new Child(List.of("-XX:SharedArchiveFile=" + archive), jarsFirst, false);
    }
    if (failed || recording != null) {
      return new Child(List.of(), jarsFirst, false);
    }
    try {
      Files.createDirectories(FOLDER);
    } catch (IOException e) {
      failed = true;
      return new Child(List.of(), jarsFirst, false);
    }
    return new Child(List.of("-XX:DumpLoadedClassList=" + classList), jarsFirst, true);
  }

  /**
   * @param child the child given by {@link #next}
   * @param process its JVM, once started
   */
  public static synchronized void started(Child child, Process process) {
    if (child.records()) {
      recording = process;
    }
  }

  // The jars' names, sizes and times: another set of jars, or one rebuilt, gets an archive of its own.
  private static int key(List<String> jars) {
    StringBuilder all = new StringBuilder();
    for (String jar : jars) {
      File file = new File(jar);
      all.append(jar).append(file.length()).append(file.lastModified());
    }
    return all.toString().hashCode();
  }

  private static boolean dump(Path classList, Path archive, String jars) {
    try {
      Path withoutLambdas = classList.resolveSibling(classList.getFileName() + ".dumped");
      List<String> lines = new ArrayList<>(Files.readAllLines(classList, StandardCharsets.UTF_8));
      lines.removeIf(line -> line.startsWith(LAMBDA_PROXY));
      Files.write(withoutLambdas, lines, StandardCharsets.UTF_8);
      Path part = archive.resolveSibling(archive.getFileName() + ".part");
      Process dump = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xshare:dump", "-XX:ErrorFile=" + FOLDER.resolve("hs_err_%p.log"),
          "-XX:SharedClassListFile=" + withoutLambdas, "-XX:SharedArchiveFile=" + part, "-cp", jars).redirectErrorStream(true).redirectOutput(FOLDER.resolve("dump.log").toFile()).start();
      if (!dump.waitFor(2, TimeUnit.MINUTES)) {
        dump.destroyForcibly().waitFor();
        return false;
      }
      if (dump.exitValue() != 0 || !Files.exists(part)) {
        return false;
      }
      Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE);
      // An archive of jars since rebuilt (70 MB each) is of no more use.
      try (Stream<Path> files = Files.list(FOLDER)) {
        for (Path old : files.filter(file -> file.toString().endsWith(".jsa") && !file.equals(archive)).toList()) {
          Files.delete(old);
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
