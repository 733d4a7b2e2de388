package couchbench.attachment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.attachment.AttachmentPlan.Upload;
import couchbench.rounds.Rounds;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AttachmentPlanTest {

  @Test
  void shouldDefaultToSizesUpTo10To7ThreeTimesEachWithBulkOfTen() {
    AttachmentPlan plan = plan(Map.of());

    assertEquals(List.of(1, 2, 3, 4, 5, 6, 7), plan.exponents());
    assertEquals(3, plan.repeat());
    assertEquals(10, plan.bulkDocs());
    assertEquals(Path.of("data", "attachments"), plan.dataDir());
    assertTrue(plan.database().startsWith("couchbench_attachment_"), plan.database());
    assertEquals(Rounds.ONCE, plan.rounds());
    assertEquals(7 * 3 * 4, plan.uploads().stream().filter(upload -> !upload.whileShort()).count(),
        "every method at every size, bulk included up to 10^7");
  }

  @Test
  void shouldUploadOnPastThreeUntilEightUploadsOrTwoSecondsWithoutRepeat() {
    AttachmentPlan plan = plan(Map.of("maxExponent", "2"));

    assertTrue(plan.uploadsOn());
    assertEquals(8, plan.mostUploads());
    List<Upload> uploads = plan.uploads(2, 1);
    assertEquals(8 * 4, uploads.size(), "8 turns of the 4 methods");
    assertEquals(3 * 4, uploads.stream().filter(upload -> !upload.whileShort()).count(), "3 turns always");
    assertEquals(new Upload(AttachmentMethod.RAW, 2, 4, 1, true), uploads.get(12), "the 4th only while short");
    assertEquals("3 to 8 upload(s) per method and size: 3, then on while they took less than 2 s",
        plan.describeUploads());
    assertTrue(AttachmentPlan.restsOnEnough(8, 0.01), "8 uploads, however short");
    assertTrue(AttachmentPlan.restsOnEnough(3, 2.0), "2 s, however few");
    assertFalse(AttachmentPlan.restsOnEnough(7, 1.99));
  }

  @Test
  void shouldTakeAnExplicitRepeatAsItIs() {
    for (int repeat : List.of(1, 3, 8, 12)) {
      AttachmentPlan plan = plan(Map.of("maxExponent", "2", "repeat", String.valueOf(repeat)));

      assertFalse(plan.uploadsOn(), "-Drepeat=" + repeat);
      assertEquals(repeat, plan.mostUploads());
      assertEquals(repeat * 4, plan.uploads(2, 1).size());
      assertTrue(plan.uploads().stream().noneMatch(Upload::whileShort));
    }
    assertEquals(12, plan(Map.of("repeat", "12")).mostUploads(), "more than the rule: as given, with or without");
  }

  @Test
  void shouldSweepEverySizeOnceARoundEachRoundItsOwnNamesAndDocuments() {
    AttachmentPlan plan = plan(Map.of("minExponent", "2", "maxExponent", "3", "repeat", "1", "rounds", "2"));

    List<Upload> uploads = plan.uploads();
    assertEquals(2 * 2 * 4, uploads.size());
    assertEquals(List.of(1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2),
        uploads.stream().map(Upload::round).toList(), "round 1 of every size, then round 2");
    assertEquals(List.of(2, 2, 2, 2, 3, 3, 3, 3), uploads.subList(8, 16).stream().map(Upload::exponent).toList());
    assertEquals("raw-2-1", uploads.get(0).docId());
    assertEquals("raw-2-1-round2", uploads.get(8).docId());
    assertEquals("raw 10^2 round 2", plan.requestName(uploads.get(8)));
    assertEquals("verify raw 10^2 round 2", plan.verifyName(uploads.get(8)));
    assertEquals("raw 10^2", plan(Map.of("repeat", "1")).requestName(AttachmentMethod.RAW, 2, 1), "one round: as ever");
    assertTrue(plan.describe().contains("the sweep 2 times"), plan.describe());
  }

  @Test
  void shouldRunBulkOnlyWhileItsRequestStaysWithinTheCap() {
    AttachmentPlan plan = plan(Map.of("maxExponent", "9", "bulkDocs", "10"));

    assertTrue(plan.bulkRuns(7), "10 x 10^7 = 10^8 bytes, the default cap");
    assertEquals(List.of(AttachmentMethod.RAW, AttachmentMethod.BASE64, AttachmentMethod.MULTIPART), plan.methods(8));
    assertTrue(plan(Map.of("bulkDocs", "2", "bulkMaxBytes", "2000")).bulkRuns(3));
    assertEquals(3, plan(Map.of("bulkDocs", "2", "bulkMaxBytes", "1999")).methods(3).size());
  }

  @Test
  void shouldLetTheMethodsTakeTurnsWithinASizeEachUploadANewDocument() {
    AttachmentPlan plan = plan(Map.of("minExponent", "2", "maxExponent", "3", "repeat", "2", "bulkDocs", "1"));

    List<Upload> uploads = plan.uploads();
    assertEquals(new Upload(AttachmentMethod.RAW, 2, 1, 1, false), uploads.get(0));
    assertEquals(new Upload(AttachmentMethod.BULK, 2, 1, 1, false), uploads.get(3));
    assertEquals(new Upload(AttachmentMethod.RAW, 2, 2, 1, false), uploads.get(4));
    assertEquals(new Upload(AttachmentMethod.RAW, 3, 1, 1, false), uploads.get(8));
    assertEquals(uploads.size(), uploads.stream().map(Upload::docId).distinct().count(), "one document id per upload");
    assertEquals("raw 10^6", AttachmentMethod.RAW.requestName(6));
    assertEquals("verify multipart 10^6", AttachmentMethod.MULTIPART.verifyName(6));
  }

  @Test
  void shouldRefuseUnusableParametersWithOneLineNamingThem() {
    Map<Map<String, String>, String> refused = Map.of(
        Map.of("maxExponent", "10"), "-DmaxExponent=10 is too large (expected 1..9",
        Map.of("maxExponent", "0"), "-DmaxExponent=0 is too small (expected >= 1)",
        Map.of("minExponent", "5", "maxExponent", "4"), "-DminExponent=5 is larger than -DmaxExponent=4",
        Map.of("repeat", "0"), "-Drepeat=0 is too small (expected >= 1)",
        Map.of("rounds", "0"), "-Drounds=0 is too small (expected >= 1)",
        Map.of("bulkDocs", "many"), "-DbulkDocs=many is not a whole number");
    refused.forEach((settings, message) -> {
      SettingsException e = assertThrows(SettingsException.class, () -> plan(settings));
      assertTrue(e.getMessage().startsWith(message), e.getMessage());
    });
  }

  private static AttachmentPlan plan(Map<String, String> settings) {
    return AttachmentPlan.from(Settings.of(settings, Map.of()));
  }
}
