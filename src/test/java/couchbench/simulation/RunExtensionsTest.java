package couchbench.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import couchbench.background.BackgroundExtension;
import couchbench.history.GateExtension;
import couchbench.history.HistoryLine;
import couchbench.resources.ServerSampling;
import couchbench.run.RunExtension;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which extensions a run's settings switch on, in the order the run calls them, and how they are listed. */
class RunExtensionsTest {

  private static List<Class<?>> on(Map<String, String> properties) {
    return RunExtensions.switchedOn(Settings.of(properties, Map.of())).stream().<Class<?>>map(Object::getClass)
        .toList();
  }

  @Test
  void shouldSwitchOnTheSamplerTheClusterReportAndTheHistoryLineByDefault() {
    assertEquals(List.of(ServerSampling.class, ClusterExtension.class, HistoryLine.class), on(Map.of()));
  }

  @Test
  void shouldLeaveTheSamplerOffWithSampleServersFalse() {
    assertEquals(List.of(ClusterExtension.class, HistoryLine.class), on(Map.of("sampleServers", "false")));
  }

  @Test
  void shouldSwitchOnBackgroundWorkAndTheGateByTheirSettingsInTheOrderARunCallsThem() {
    assertEquals(List.of(ServerSampling.class, BackgroundExtension.class, ClusterExtension.class, GateExtension.class,
        HistoryLine.class), on(Map.of("background", "compact", "baseline", "last")));
  }

  @Test
  void shouldRefuseAnExtensionsSettingThatDoesNotParseBeforeTheLoad() {
    SettingsException refused = assertThrows(SettingsException.class,
        () -> RunExtensions.switchedOn(Settings.of(Map.of("background", "defragment"), Map.of())));
    assertEquals(true, refused.getMessage().contains("defragment"), refused.getMessage());
  }

  @Test
  void shouldListEveryExtensionWithWhatSwitchesItOnWhatItDoesAndWhatItCosts() {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      RunExtensions.main(new String[0]);
    } finally {
      System.setOut(out);
    }
    String listing = printed.toString(StandardCharsets.UTF_8);
    for (RunExtension.Spec spec : List.of(ServerSampling.SPEC, BackgroundExtension.SPEC, ClusterExtension.SPEC,
        GateExtension.SPEC, HistoryLine.SPEC)) {
      assertEquals(true, listing.contains(spec.name() + " (" + spec.setting() + ")\n  does:  " + spec.does()
          + "\n  costs: " + spec.costs()), listing);
    }
  }
}
