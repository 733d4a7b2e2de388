package couchbench.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RecordVersionsTest {

  private final RecordVersions versions = new RecordVersions();

  @Test
  void shouldStartEveryRecordAtVersionOne() {
    assertEquals(1, versions.floor(42));
  }

  @Test
  void shouldRaiseTheFloorWithAWriteThatNoOtherOverlapped() {
    RecordVersions.Write write = versions.begin(7);
    versions.end(write, true);

    assertEquals(2, write.version());
    assertEquals(2, versions.floor(7));
  }

  @Test
  void shouldNotRaiseTheFloorWithOverlappingWritesWhichMayLandInEitherOrder() {
    RecordVersions.Write first = versions.begin(7);
    RecordVersions.Write second = versions.begin(7);
    versions.end(second, true);
    versions.end(first, true);

    assertEquals(1, versions.floor(7), "the server may hold either version: only 1 is sure");
    RecordVersions.Write alone = versions.begin(7);
    versions.end(alone, true);
    assertEquals(4, versions.floor(7), "a later write alone: sure again");
  }

  @Test
  void shouldNotRaiseTheFloorWithAWriteTheServerRefused() {
    versions.end(versions.begin(7), false);

    assertEquals(1, versions.floor(7));
  }

  @Test
  void shouldRaiseTheFloorWithEveryCouchDbWriteWhichItsRevisionsOrder() {
    versions.acknowledged(7, 5);
    versions.acknowledged(7, 3);

    assertEquals(5, versions.floor(7));
  }
}
