package couchbench;

import static com.tngtech.archunit.lang.conditions.ArchConditions.be;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static java.util.stream.Collectors.joining;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The layers of couchbench's packages, read from the compiled classes: the main ones (target/classes) and the
 * simulations (simulations/*.java: the pom compiles them as test sources into target/test-classes, in the default
 * package). The tests under src/test/java are not read.
 *
 * <p>{@link #LAYERS} is the picture, top to bottom, and the layer rules are derived from it: a package may use only
 * the packages of the layers below its own, not those of its own layer (unless an arrow says so: {@code versus->siege})
 * nor those above. Each name is a package under couchbench with its subpackages ({@code memcache} is
 * couchbench.memcache..); {@code (simulations)} is the default package. A package that does not exist yet fails
 * nothing: the picture says where it goes when it comes.
 */
@AnalyzeClasses(locations = ArchitectureTest.MainClassesAndSimulations.class,
    importOptions = ArchitectureTest.MainClassesAndSimulations.class)
class ArchitectureTest {

  static final String LAYERS = """
      L9  merge  (simulations)
      L8  simulation
      L7  siege  versus->siege  bulkinsert  attachment  viewquery  workloads  changes  query  replication  sync  cacheaside
          tenants  search
      L6  requests  variants
      L5  resources  curve  history  background  metrics  trend
      L4  run
      L3  couchdb  results
      L2  targets  report
      L1  data  process  rounds  scaleout  gatling  distributions  feed  ledger
      L0  startup  memcache
      """;

  /**
   * All that couchbench.memcache.. may use besides itself, and why: it is the Gatling protocol, which could be published
   * as a Gatling plugin of its own (with the layers' rule that it uses no other package of couchbench).
   */
  static final Map<String, String> MEMCACHE_MAY_USE = orderedMap(
      "java..", "the JDK",
      "javax..", "the JDK's javax.net.ssl, for TLS",
      "io.gatling..", "the Gatling DSL and engine API that the protocol plugs into",
      "io.netty..", "the client's connections and codec, on Gatling's Netty",
      "scala..", "Gatling's engine API is Scala: its Action, Option, functions and collections",
      "com.typesafe.scalalogging..", "the Logger that Gatling's actions carry, being StrictLogging",
      "org.slf4j..", "that Logger's underlying() slf4j Logger: scalalogging's own methods are macros Java cannot call");

  private static final String SIMULATIONS = "(simulations)";

  /**
   * Each package is a slice of its own, but couchbench.memcache.. is one: its API package and memcache.internal use
   * each other (the DSL builds internal.MemcacheCommand and MemcacheActionSettings; internal's protocol and action keep
   * and record into memcache.MemcacheTimings). They are one Gatling protocol and held together by its own rule below.
   */
  @ArchTest
  static final ArchRule packages_are_free_of_cycles = slices().assignedFrom(packagesWithMemcacheAsOne())
      .should().beFreeOfCycles()
      .because("two packages that use each other are one package in two places: move the class that closes the"
          + " cycle down, or the use up (the layers are drawn in ArchitectureTest.LAYERS)");

  @ArchTest
  static final ArchRule layers_use_only_the_layers_below = layers();

  @ArchTest
  static final ArchRule every_package_has_a_layer = classes()
      .should(be(inAnyLayer()))
      .because("a package of couchbench that is in no layer of ArchitectureTest.LAYERS is held by no layer rule:"
          + " give it its place in the picture (and in docs/layout.md's)");

  @ArchTest
  static final ArchRule memcache_uses_only_gatling_netty_and_the_jdk = classes()
      .that().resideInAPackage("couchbench.memcache..")
      .should().onlyDependOnClassesThat().resideInAnyPackage(memcacheMayUse())
      .because("couchbench.memcache is the Gatling protocol and could be published as a plugin of its own;"
          + " besides itself it may use only (ArchitectureTest.MEMCACHE_MAY_USE) "
          + MEMCACHE_MAY_USE.entrySet().stream().map(use -> use.getKey() + " (" + use.getValue() + ")")
              .collect(joining(", ")));

  /** With optional layers, a layer that reads nothing passes: this makes sure both kinds of classes were read. */
  @ArchTest
  static void main_classes_and_simulations_are_read(JavaClasses classes) {
    assertTrue(classes.stream().anyMatch(inDefaultPackage()),
        "no simulation (default package) was read from " + MainClassesAndSimulations.TEST_CLASSES);
    assertTrue(classes.stream().anyMatch(javaClass -> javaClass.getPackageName().startsWith("couchbench.")),
        "no main class was read from " + MainClassesAndSimulations.MAIN_CLASSES);
  }

  /** The layered architecture that {@link #LAYERS} draws: each package a layer of its own. */
  private static ArchRule layers() {
    LayeredArchitecture architecture = layeredArchitecture().consideringOnlyDependenciesInLayers()
        .withOptionalLayers(true);
    List<List<String>> rows = rows();
    for (List<String> row : rows) {
      for (String entry : row) {
        String name = name(entry);
        architecture = name.equals(SIMULATIONS)
            ? architecture.layer(name).definedBy(inDefaultPackage())
            : architecture.layer(name).definedBy("couchbench." + name + "..");
      }
    }
    List<String> below = new ArrayList<>();
    for (List<String> row : rows) {
      for (String entry : row) {
        List<String> allowed = new ArrayList<>(below);
        allowed.addAll(Arrays.asList(entry.split("->")).subList(1, entry.split("->").length));
        architecture = allowed.isEmpty()
            ? architecture.whereLayer(name(entry)).mayNotAccessAnyLayer()
            : architecture.whereLayer(name(entry)).mayOnlyAccessLayers(allowed.toArray(String[]::new));
      }
      row.forEach(entry -> below.add(name(entry)));
    }
    return architecture.as("each package of couchbench uses only the packages of the layers below its own,\n" + LAYERS)
        .because("a use upwards or sideways means that the class used belongs lower, or the class using it higher");
  }

  /**
   * The rows of {@link #LAYERS}, bottom first, each the entries after its level; a line without a level goes on the row
   * above it, which is too long for one line.
   */
  private static List<List<String>> rows() {
    List<List<String>> rows = new ArrayList<>();
    for (String line : LAYERS.strip().split("\n")) {
      List<String> words = Arrays.asList(line.strip().split("\\s+"));
      if (words.get(0).matches("L\\d+")) {
        rows.add(0, new ArrayList<>(words.subList(1, words.size())));
      } else {
        rows.get(0).addAll(words);
      }
    }
    return rows;
  }

  private static String name(String entry) {
    return entry.split("->")[0];
  }

  private static DescribedPredicate<JavaClass> inDefaultPackage() {
    return DescribedPredicate.describe("in the default package", javaClass -> javaClass.getPackageName().isEmpty());
  }

  private static DescribedPredicate<JavaClass> inAnyLayer() {
    String[] packages = rows().stream().flatMap(List::stream).map(ArchitectureTest::name)
        .filter(name -> !name.equals(SIMULATIONS)).map(name -> "couchbench." + name + "..").toArray(String[]::new);
    return JavaClass.Predicates.resideInAnyPackage(packages).or(inDefaultPackage())
        .as("in a package of ArchitectureTest.LAYERS");
  }

  private static SliceAssignment packagesWithMemcacheAsOne() {
    return new SliceAssignment() {
      @Override
      public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
        String name = javaClass.getPackageName();
        if (!name.startsWith("couchbench.")) {
          return SliceIdentifier.ignore();
        }
        name = name.substring("couchbench.".length());
        return SliceIdentifier.of(name.equals("memcache") || name.startsWith("memcache.") ? "memcache.." : name);
      }

      @Override
      public String getDescription() {
        return "the packages of couchbench, each subpackage one of its own but couchbench.memcache.. one in all,";
      }
    };
  }

  private static String[] memcacheMayUse() {
    List<String> packages = new ArrayList<>(List.of("couchbench.memcache.."));
    packages.addAll(MEMCACHE_MAY_USE.keySet());
    return packages.toArray(String[]::new);
  }

  private static Map<String, String> orderedMap(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  /**
   * All of target/classes, and of target/test-classes (where the pom compiles simulations/ beside src/test/java) only
   * the default package: the simulations, not the tests.
   */
  static final class MainClassesAndSimulations implements LocationProvider, ImportOption {

    static final Path TEST_CLASSES = testClasses();
    static final Path MAIN_CLASSES = TEST_CLASSES.resolveSibling("classes");

    @Override
    public Set<Location> get(Class<?> testClass) {
      if (!Files.isDirectory(MAIN_CLASSES.resolve("couchbench"))) {
        throw new IllegalStateException("no main classes at " + MAIN_CLASSES);
      }
      return Set.of(Location.of(MAIN_CLASSES), Location.of(TEST_CLASSES));
    }

    @Override
    public boolean includes(Location location) {
      if (!"file".equals(location.asURI().getScheme())) {
        return false;
      }
      Path file = Path.of(location.asURI());
      return file.startsWith(MAIN_CLASSES) || TEST_CLASSES.equals(file.getParent());
    }

    private static Path testClasses() {
      try {
        return Path.of(ArchitectureTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
