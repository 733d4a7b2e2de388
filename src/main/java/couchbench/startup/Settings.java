package couchbench.startup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * All settings of a run, read once from system properties (and the environment, e.g. for the CouchDB password). A blank
 * value counts as not set, so a parameter passed on empty by a build file falls back to its default.
 */
public final class Settings {

  /** What is shown wherever a password would appear: a parameter named like one, a URL, a login described. */
  public static final String MASK = "*****";

  private final Map<String, String> properties;
  private final Map<String, String> environment;
  // Every run parameter asked for, with the value it got: a run's results name exactly what it ran with.
  private final Map<String, String> used = new ConcurrentSkipListMap<>();

  private Settings(Map<String, String> properties, Map<String, String> environment) {
    this.properties = Map.copyOf(properties);
    this.environment = Map.copyOf(environment);
  }

  /** @return the settings of this JVM: its system properties and its environment */
  public static Settings fromSystemProperties() {
    Map<String, String> properties = new HashMap<>();
    System.getProperties().stringPropertyNames().forEach(name -> properties.put(name, System.getProperty(name)));
    return new Settings(properties, System.getenv());
  }

  /**
   * @param properties stand-ins for the system properties
   * @param environment stand-ins for the environment variables
   * @return settings read from these maps, for tests
   */
  public static Settings of(Map<String, String> properties, Map<String, String> environment) {
    return new Settings(properties, environment);
  }

  /**
   * @param overrides properties that replace or add to these settings' own, e.g. a variant's couchdb.url
   * @return settings of the same environment with them
   */
  public Settings with(Map<String, String> overrides) {
    Map<String, String> changed = new HashMap<>(properties);
    changed.putAll(overrides);
    return new Settings(changed, environment);
  }

  /**
   * @param name a run parameter, e.g. "docs"
   * @param defaultValue the value when it is not set
   * @return its value, or the default
   */
  public String get(String name, String defaultValue) {
    return used(name, value(name).orElse(defaultValue));
  }

  /**
   * @param name a run parameter
   * @param defaultValue the value when it is not set
   * @param min the smallest allowed value
   * @return its value as an int
   * @throws SettingsException when it is not a whole number of at least min
   */
  public int intValue(String name, int defaultValue, int min) {
    Optional<String> raw = value(name);
    if (raw.isEmpty()) {
      return used(name, defaultValue);
    }
    Integer value = wholeNumber(raw.get());
    if (value == null) {
      throw new SettingsException("-D" + name + "=" + raw.get() + " is not a whole number (expected >= " + min + ")");
    }
    if (value < min) {
      throw new SettingsException("-D" + name + "=" + raw.get() + " is too small (expected >= " + min + ")");
    }
    return used(name, value);
  }

  /**
   * -Doperations, for a run that goes for either a number of operations or -Dduration seconds.
   *
   * @return -Doperations, at least 1; 0 when it is not given, for the run to go for its duration
   * @throws SettingsException when -Doperations and -Dduration are both given, or -Doperations is no whole number of
   *     at least 1
   */
  public long operationsInsteadOfDuration() {
    long operations = value("operations").isPresent() ? intValue("operations", 0, 1) : 0;
    if (operations > 0 && value("duration").isPresent()) {
      throw new SettingsException("-Doperations and -Dduration are both given: give one, the operations to run or the"
          + " seconds to run them for");
    }
    return operations;
  }

  /**
   * @param name a run parameter holding a comma-separated list, e.g. "1,2,4"
   * @param defaults the list when it is not set
   * @param min the smallest allowed element
   * @return its elements in the order given
   * @throws SettingsException when an element is not a whole number of at least min
   */
  public List<Integer> intList(String name, List<Integer> defaults, int min) {
    Optional<String> raw = value(name);
    if (raw.isEmpty()) {
      return used(name, List.copyOf(defaults));
    }
    List<Integer> values = new ArrayList<>();
    for (String element : raw.get().split(",", -1)) {
      Integer value = wholeNumber(element);
      if (value == null || value < min) {
        throw new SettingsException("-D" + name + "=" + raw.get()
            + " is not a list of whole numbers (expected each >= " + min + ", e.g. 1,2,4)");
      }
      values.add(value);
    }
    return used(name, List.copyOf(values));
  }

  /**
   * @param name a run parameter
   * @param defaultValue the value when it is not set
   * @return its value as a decimal number, e.g. 0.95
   * @throws SettingsException when it is not a finite decimal number
   */
  public double doubleValue(String name, double defaultValue) {
    Optional<String> raw = value(name);
    if (raw.isEmpty()) {
      return used(name, defaultValue);
    }
    try {
      double value = Double.parseDouble(raw.get().trim());
      if (Double.isFinite(value)) {
        return used(name, value);
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new SettingsException("-D" + name + "=" + raw.get() + " is not a decimal number (e.g. 0.5)");
  }

  /**
   * @param name a run parameter
   * @param defaultValue the value when it is not set
   * @return true for true/yes/on, false for false/no/off (any case)
   * @throws SettingsException for any other value
   */
  public boolean booleanValue(String name, boolean defaultValue) {
    Optional<String> raw = value(name);
    if (raw.isEmpty()) {
      return used(name, defaultValue);
    }
    switch (raw.get().trim().toLowerCase(Locale.ROOT)) {
      case "true": case "yes": case "on": return used(name, true);
      case "false": case "no": case "off": return used(name, false);
      default: throw new SettingsException("-D" + name + "=" + raw.get() + " is not true or false");
    }
  }

  /**
   * @return every run parameter read so far (through {@link #get}, {@link #intValue}, {@link #intList} or
   *     {@link #booleanValue}) with the value it got, defaults included, by name
   */
  public Map<String, String> parameters() {
    return Map.copyOf(used);
  }

  private <T> T used(String name, T value) {
    String text = value instanceof List<?> list
        ? String.join(",", list.stream().map(String::valueOf).toList()) : String.valueOf(value);
    used.put(name, name.toLowerCase(Locale.ROOT).contains("password") ? MASK : text);
    return value;
  }

  /**
   * A property as given, not counted as read (see {@link #parameters}): for a setting that is not a run parameter,
   * such as the CouchDB login, or for looking whether a parameter is given before reading it.
   *
   * @param name a property, e.g. "couchdb.url"
   * @return its value; empty when it is not set or blank
   */
  public Optional<String> value(String name) {
    return Optional.ofNullable(properties.get(name)).filter(v -> !v.isBlank());
  }

  /** An environment variable, blank counting as unset. */
  public Optional<String> environmentValue(String name) {
    return Optional.ofNullable(environment.get(name)).filter(v -> !v.isBlank());
  }

  /** The number, or null when the text is not a whole number that fits an int. */
  private static Integer wholeNumber(String text) {
    try {
      return Integer.valueOf(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
