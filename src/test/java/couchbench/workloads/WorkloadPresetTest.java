package couchbench.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import site.ycsb.generator.ZipfianGenerator;
import site.ycsb.workloads.CoreWorkload;

/**
 * Each preset against YCSB 0.17.0's workload file of the same letter: the values the file sets (written here as the
 * files give them; they are not in YCSB's core jar), the rest CoreWorkload's defaults, read from YCSB's own classes.
 */
class WorkloadPresetTest {

  /** The properties each of YCSB's workloads/workloada..f sets besides recordcount and operationcount (1000). */
  private static final Map<WorkloadPreset, String> FILES = Map.of(
      WorkloadPreset.A, "readproportion=0.5\nupdateproportion=0.5\nscanproportion=0\ninsertproportion=0\n"
          + "requestdistribution=zipfian",
      WorkloadPreset.B, "readproportion=0.95\nupdateproportion=0.05\nscanproportion=0\ninsertproportion=0\n"
          + "requestdistribution=zipfian",
      WorkloadPreset.C, "readproportion=1\nupdateproportion=0\nscanproportion=0\ninsertproportion=0\n"
          + "requestdistribution=zipfian",
      WorkloadPreset.D, "readproportion=0.95\nupdateproportion=0\nscanproportion=0\ninsertproportion=0.05\n"
          + "requestdistribution=latest",
      WorkloadPreset.E, "readproportion=0\nupdateproportion=0\nscanproportion=0.95\ninsertproportion=0.05\n"
          + "requestdistribution=zipfian\nmaxscanlength=100\nscanlengthdistribution=uniform",
      WorkloadPreset.F, "readproportion=0.5\nupdateproportion=0\nscanproportion=0\ninsertproportion=0\n"
          + "readmodifywriteproportion=0.5\nrequestdistribution=zipfian");

  @ParameterizedTest
  @EnumSource(WorkloadPreset.class)
  void shouldEqualYcsbsWorkloadFile(WorkloadPreset preset) throws IOException {
    Properties file = new Properties();
    file.load(new StringReader(FILES.get(preset)));

    Map<Operation, Double> proportions = preset.proportions();
    assertEquals(value(file, CoreWorkload.READ_PROPORTION_PROPERTY, CoreWorkload.READ_PROPORTION_PROPERTY_DEFAULT),
        proportions.get(Operation.READ));
    assertEquals(value(file, CoreWorkload.UPDATE_PROPORTION_PROPERTY,
        CoreWorkload.UPDATE_PROPORTION_PROPERTY_DEFAULT), proportions.get(Operation.UPDATE));
    assertEquals(value(file, CoreWorkload.INSERT_PROPORTION_PROPERTY,
        CoreWorkload.INSERT_PROPORTION_PROPERTY_DEFAULT), proportions.get(Operation.INSERT));
    assertEquals(value(file, CoreWorkload.SCAN_PROPORTION_PROPERTY, CoreWorkload.SCAN_PROPORTION_PROPERTY_DEFAULT),
        proportions.get(Operation.SCAN));
    assertEquals(value(file, CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY,
        CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY_DEFAULT), proportions.get(Operation.READ_MODIFY_WRITE));
    assertEquals(file.getProperty(CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY),
        preset.distribution().name().toLowerCase(Locale.ROOT));
  }

  @ParameterizedTest
  @EnumSource(WorkloadPreset.class)
  void shouldKeepCoreWorkloadsDefaultsWhereTheFileSetsNone(WorkloadPreset preset) {
    assertEquals(Integer.parseInt(CoreWorkload.FIELD_COUNT_PROPERTY_DEFAULT), WorkloadPreset.FIELDS);
    assertEquals(Integer.parseInt(CoreWorkload.FIELD_LENGTH_PROPERTY_DEFAULT), WorkloadPreset.FIELD_LENGTH);
    assertEquals(ZipfianGenerator.ZIPFIAN_CONSTANT, WorkloadPreset.ZIPFIAN_CONSTANT);
    assertEquals(1000, WorkloadPreset.RECORDS, "recordcount=1000 in every workload file");
    if (preset == WorkloadPreset.E) {
      assertEquals(100, WorkloadPreset.MAX_SCAN_LENGTH, "workloade's maxscanlength");
      assertEquals(CoreWorkload.SCAN_LENGTH_DISTRIBUTION_PROPERTY_DEFAULT, "uniform");
    }
  }

  private static double value(Properties file, String property, String coreDefault) {
    return Double.parseDouble(file.getProperty(property, coreDefault));
  }
}
