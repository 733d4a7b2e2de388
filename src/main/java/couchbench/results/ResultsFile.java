package couchbench.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.TreeSet;

/** Writes and reads results.json ({@link Results}), refusing a file of another schema with one line. */
public final class ResultsFile {

  /** The file's name in a run folder. */
  public static final String NAME = "results.json";

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private ResultsFile() {}

  /**
   * @param results the results
   * @return them as results.json holds them
   */
  public static String toJson(Results results) {
    try {
      return JSON.writeValueAsString(results) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("results cannot be written as JSON", e);
    }
  }

  /**
   * @param file a results.json, or a run folder holding one
   * @return its results
   * @throws ResultsException naming the file when it is missing, not JSON, of another schema or incomplete
   */
  public static Results read(Path file) {
    Path json = Files.isDirectory(file) ? file.resolve(NAME) : file;
    String text;
    try {
      text = Files.readString(json);
    } catch (NoSuchFileException e) {
      throw new ResultsException(json + ": no such file" + (Files.isDirectory(file)
          ? " (a run folder written before couchbench wrote results, or not a couchbench run)" : ""));
    } catch (IOException e) {
      throw new ResultsException(json + ": cannot be read (" + e.getMessage() + ")");
    }
    return parse(json, text);
  }

  /**
   * @param source the file's name, for messages
   * @param text its content
   * @return the results it holds
   * @throws ResultsException when it is not JSON, of another schema or incomplete
   */
  static Results parse(Path source, String text) {
    JsonNode tree;
    try {
      tree = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new ResultsException(source + ": not JSON (" + e.getOriginalMessage() + "); cut short?");
    }
    if (tree == null || !tree.path("schema").isInt()) {
      throw new ResultsException(source + ": no \"schema\" number: not a couchbench results file");
    }
    int schema = tree.get("schema").asInt();
    if (!Results.READS.contains(schema)) {
      throw new ResultsException(source + ": schema " + schema + "; this couchbench reads schemas "
          + new TreeSet<>(Results.READS));
    }
    try {
      Results results = JSON.treeToValue(tree, Results.class);
      if (results.run() == null || results.requests() == null) {
        throw new ResultsException(source + ": no \"run\" or no \"requests\": incomplete results file");
      }
      return results;
    } catch (JsonProcessingException e) {
      throw new ResultsException(source + ": not schema " + schema + " (" + e.getOriginalMessage() + ")");
    }
  }

  /**
   * @param figures a simulation's own figures ({@link Summary})
   * @return them as results.json holds them
   */
  static JsonNode tree(Object figures) {
    return JSON.valueToTree(figures);
  }

  /**
   * @param source the results' file or folder, for messages
   * @param results results read or written
   * @param type the class of the simulation's figures
   * @return its figures, read back
   * @throws ResultsException when the results hold none, or not of that type
   */
  static <F> F figures(Path source, Results results, Class<F> type) {
    if (results.figures() == null || results.figures().isNull()) {
      throw new ResultsException(source + ": no \"figures\" of " + results.run().simulation()
          + (results.schema() < 3 ? " (schema " + results.schema() + " has none; they came with schema 3)" : ""));
    }
    try {
      return JSON.treeToValue(results.figures(), type);
    } catch (JsonProcessingException e) {
      throw new ResultsException(source + ": \"figures\" are not " + results.run().simulation() + "'s ("
          + e.getOriginalMessage() + ")");
    }
  }

  /**
   * Writes the file into a folder, through a temporary file renamed into place, so a reader never sees half of it.
   *
   * @param folder the run folder
   * @param results the results
   * @return the file written
   */
  public static Path write(Path folder, Results results) {
    Path target = folder.resolve(NAME);
    Path part = folder.resolve(NAME + ".part");
    try {
      Files.writeString(part, toJson(results));
      return Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new ResultsException(target + ": cannot be written (" + e.getMessage() + ")");
    }
  }
}
