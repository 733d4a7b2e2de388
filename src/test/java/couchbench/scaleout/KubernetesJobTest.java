package couchbench.scaleout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * deploy/kubernetes/'s contract, read as Kubernetes reads it: an Indexed Job whose N is the same everywhere, the pod's
 * completion index wired to -Dinjector=I/N, the CouchDB password from a Secret, resources requested; as committed and
 * as run.sh fills it in for a run.
 */
class KubernetesJobTest {

  private static final Path DEPLOY = Path.of("deploy", "kubernetes");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void shouldDeclareAnIndexedJobOfNInjectorsWiredToTheirShare() throws IOException {
    assertJobOf(2, YAML.readTree(DEPLOY.resolve("job.yaml").toFile()));
  }

  @Test
  void shouldFillTheJobInForARunWithTheSameNEverywhereAndTheRunsProperties() throws Exception {
    Run render = render("3", "CouchSet", "-Dcouchdb.url=http://db1:5984", "-Dcouchdb.user=admin", "-Dusers=90");

    assertEquals(0, render.exitCode(), render.output());
    JsonNode job = YAML.readTree(render.output());
    JsonNode container = assertJobOf(3, job);
    assertEquals("CouchSet", env(container, "SIMULATION").path("value").asText());
    assertTrue(env(container, "START_AT").path("value").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"),
        "an ISO-8601 UTC start");
    assertEquals(List.of("-Dinjector=$(JOB_COMPLETION_INDEX)/$(INJECTORS)", "-DstartAt=$(START_AT)",
        "-Dcouchdb.url=http://db1:5984", "-Dcouchdb.user=admin", "-Dusers=90"), strings(container.path("args")));
    assertNotEquals("couchbench-injectors", job.at("/metadata/name").asText(), "a Job of its own per run");
  }

  @Test
  void shouldRefuseAPasswordOnTheCommandLine() throws Exception {
    Run render = render("2", "CouchSet", "-Dcouchdb.password=secret");

    assertEquals(1, render.exitCode());
    assertEquals("-Dcouchdb.password=secret: no password on the command line; put it in the Secret"
        + " couchbench-couchdb\n", render.output());
  }

  @Test
  void shouldBuildAnImageThatNeedsNoRegistryAtRunTimeAndNameNoRegistry() throws IOException {
    String dockerfile = Files.readString(DEPLOY.resolve("Dockerfile"));
    assertTrue(dockerfile.lines().anyMatch(line -> line.matches("FROM \\S*temurin-17\\S*")), "JDK 17");
    assertTrue(dockerfile.contains("mvn -B -q dependency:go-offline"), "dependencies fetched at build time");
    assertTrue(dockerfile.contains("dependency:build-classpath") && dockerfile.contains("target/injector.classpath"),
        "the classpath injector.sh starts Gatling with");
    String injector = Files.readString(DEPLOY.resolve("injector.sh"));
    assertTrue(injector.contains("\"$@\""), "the Job's args reach the Gatling JVM");
    assertFalse(injector.contains("mvn "), "no Maven at run time");
    assertTrue(Files.isExecutable(DEPLOY.resolve("injector.sh")) && Files.isExecutable(DEPLOY.resolve("run.sh")));
    try (Stream<Path> files = Files.list(DEPLOY)) {
      for (Path file : files.toList()) {
        String text = Files.readString(file);
        assertFalse(text.matches("(?s).*https?://(?!db1:|127\\.0\\.0\\.1).*"), file + " names no host to fetch from");
      }
    }
  }

  /** Checks the Job's contract for N injectors; returns its container. */
  private static JsonNode assertJobOf(int n, JsonNode job) {
    assertEquals("batch/v1", job.path("apiVersion").asText());
    assertEquals("Job", job.path("kind").asText());
    JsonNode spec = job.path("spec");
    assertEquals("Indexed", spec.path("completionMode").asText(), "indexed completion");
    assertEquals(n, spec.path("completions").asInt(), "completions = N");
    assertEquals(n, spec.path("parallelism").asInt(), "parallelism = N: all injectors at once");
    assertEquals("Never", spec.at("/template/spec/restartPolicy").asText(), "a failed injector is not restarted late");
    JsonNode containers = spec.at("/template/spec/containers");
    assertEquals(1, containers.size());
    JsonNode container = containers.get(0);
    assertEquals(String.valueOf(n), env(container, "INJECTORS").path("value").asText(), "INJECTORS = N");
    assertEquals("metadata.annotations['batch.kubernetes.io/job-completion-index']",
        env(container, "JOB_COMPLETION_INDEX").at("/valueFrom/fieldRef/fieldPath").asText(),
        "the pod's completion index");
    List<String> args = strings(container.path("args"));
    assertTrue(args.contains("-Dinjector=$(JOB_COMPLETION_INDEX)/$(INJECTORS)"), "the index is the injector: " + args);
    assertTrue(args.contains("-DstartAt=$(START_AT)"), "one start for all: " + args);
    assertTrue(args.stream().noneMatch(arg -> arg.toLowerCase().contains("password")), "no password in args");
    JsonNode password = env(container, "COUCHDB_PASSWORD");
    assertEquals("couchbench-couchdb", password.at("/valueFrom/secretKeyRef/name").asText(), "from the Secret");
    assertEquals("password", password.at("/valueFrom/secretKeyRef/key").asText());
    assertTrue(password.path("value").isMissingNode(), "never a value in the manifest");
    for (JsonNode variable : container.path("env")) {
      assertFalse(variable.path("name").asText().toLowerCase().contains("password") && variable.has("value"),
          variable.toString());
    }
    JsonNode requests = container.at("/resources/requests");
    assertFalse(requests.path("cpu").asText().isEmpty(), "CPU requested");
    assertFalse(requests.path("memory").asText().isEmpty(), "memory requested");
    assertEquals("/app/deploy/kubernetes/injector.sh", container.path("command").get(0).asText());
    return container;
  }

  private static JsonNode env(JsonNode container, String name) {
    for (JsonNode variable : container.path("env")) {
      if (variable.path("name").asText().equals(name)) {
        return variable;
      }
    }
    throw new AssertionError("no env " + name + " in " + container.path("env"));
  }

  private static List<String> strings(JsonNode array) {
    List<String> strings = new ArrayList<>();
    array.forEach(element -> strings.add(element.asText()));
    return strings;
  }

  private record Run(int exitCode, String output) {}

  private static Run render(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", DEPLOY.resolve("run.sh").toString(), "--render"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "run.sh --render ends");
    return new Run(process.exitValue(), output);
  }
}
