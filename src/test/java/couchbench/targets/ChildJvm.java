package couchbench.targets;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Starts a main class of the test classpath in a JVM of its own, to stop it the hard way or watch it exit. */
public final class ChildJvm {

  /**
   * The JIT of every JVM the tests start: C1 only. A test's JVM runs seconds, and C2 spent them compiling on the
   * machine's two cores beside the run and its servers: a MemSet of 2 users for 1 s took 9.5-11 s of CPU and 11-13 s
   * from start to end with C2, 5-5.8 s and 6.7-7.7 s with C1 only (measured December 2026). BulkInsert's own runs
   * use C1 only already (the pom's profile, docs/bulkinsert.md); the rounds of a run of variants inherit it.
   */
  public static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

  private ChildJvm() {}

  /**
   * Starts main with the given system properties (name to value), -Dcouchbench.defaultPorts=false unless they name
   * it, and arguments; stdout and stderr merged.
   */
  public static Process start(Map<String, String> properties, Class<?> main, String... args) throws IOException {
    // Surefire and failsafe put the whole test classpath here; java.class.path may be just their booter jar.
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        C1_ONLY));
    command.addAll(definitions(properties));
    command.addAll(List.of("-cp", classpath, main.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /**
   * The -D options of a test's JVM: the given properties, and -Dcouchbench.defaultPorts=false unless they name it, so
   * that a test never looks at 5984 or 21201, where a user's own servers may be. Only the tests of the default ports
   * themselves say otherwise.
   *
   * <p>And HTTPS through a proxy that refuses at once (loopback port 1, the tests' closed port), so that Gatling's
   * check for a newer release fails without a wait: it fetches Maven Central's list of versions each time a Gatling
   * JVM starts (3.15.1 persists the release date under the wrong key, so its cache never reads back), which cost each
   * run about 0.9 s here, and up to 2 s of timeouts where Maven Central does not answer. Java never sends loopback
   * through the proxy, and loopback is where every server a test starts listens.
   *
   * <p>And the JDK's own XSLT transformer: the check then writes its date to Java's preferences, an XML file written
   * through the first TransformerFactory on the classpath, which is Saxon (a dependency of Gatling's): a signed jar,
   * verified and loaded for that alone, 0.41 s of a run's start against 0.06 s with the JDK's (December 2026).
   *
   * @param properties name to value
   * @return "-Dname=value" for each
   */
  public static List<String> definitions(Map<String, String> properties) {
    Map<String, String> all = new LinkedHashMap<>(Map.of(TargetSettings.DEFAULT_PORTS, "false",
        "https.proxyHost", "127.0.0.1", "https.proxyPort", "1",
        "javax.xml.transform.TransformerFactory", "com.sun.org.apache.xalan.internal.xsltc.trax.TransformerFactoryImpl"));
    all.putAll(properties);
    List<String> options = new ArrayList<>();
    all.forEach((name, value) -> options.add("-D" + name + "=" + value));
    return options;
  }
}
