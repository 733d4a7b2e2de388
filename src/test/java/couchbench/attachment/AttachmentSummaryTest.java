package couchbench.attachment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.attachment.UploadTally.Figures;
import couchbench.attachment.UploadTally.Key;
import couchbench.report.SummaryPage;
import couchbench.results.Results;
import couchbench.results.SummaryInput;
import couchbench.startup.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttachmentSummaryTest {

  /** Three rounds of 10^1 bytes, two uploads per method in each: known times, in seconds. */
  private static final Map<AttachmentMethod, List<List<Double>>> TIMES = Map.of(
      AttachmentMethod.RAW, List.of(List.of(0.1, 0.3), List.of(0.4, 0.4), List.of(0.1, 0.1)),
      AttachmentMethod.BASE64, List.of(List.of(1.0, 1.0), List.of(1.2, 1.2), List.of(0.5, 0.5)),
      AttachmentMethod.MULTIPART, List.of(List.of(2.5, 2.5), List.of(3.0, 3.0), List.of(2.0, 2.0)),
      AttachmentMethod.BULK, List.of(List.of(2.0, 2.0), List.of(3.0, 3.0), List.of(4.0, 4.0)));

  @Test
  void shouldGiveTheMedianOfTheRoundsFiguresWithTheirRange(@TempDir Path folder) throws IOException {
    AttachmentPlan plan = plan(Map.of("minExponent", "1", "maxExponent", "1", "repeat", "2", "rounds", "3"));
    UploadTally tally = new UploadTally(plan);
    TIMES.forEach((method, rounds) -> {
      for (int round = 1; round <= rounds.size(); round++) {
        for (double seconds : rounds.get(round - 1)) {
          tally.verified(new Key(method, 1, round), seconds);
        }
      }
    });

    page(plan, tally).writeTo(folder);

    // Each round's figure is the median of its two uploads (raw: 0.2, 0.4, 0.1); the page, the rounds' median.
    assertEquals(List.of("n,bytes,raw median s,raw min s,raw max s,base64 median s,base64 min s,base64 max s,"
            + "multipart median s,multipart min s,multipart max s,bulk median s per request,bulk min s per request,"
            + "bulk max s per request,bulk median s per document,bulk min s per document,bulk max s per document,"
            + "uploads verified,uploads planned",
        "1,10,0.2,0.1,0.4,1,0.5,1.2,2.5,2,3,3,2,4,0.3,0.2,0.4,24,24"),
        Files.readAllLines(folder.resolve("upload-times-by-size.csv")));
    // base64 / raw by round: 5, 3 and 5.
    assertEquals(List.of("n,base64 / raw,base64 / raw min,base64 / raw max,multipart / raw,multipart / raw min,"
            + "multipart / raw max,bulk per document / raw,bulk per document / raw min,bulk per document / raw max",
        "1,5,3,5,12.5,7.5,20,1,0.75,4"), Files.readAllLines(folder.resolve("ratios-to-raw.csv")));
    assertEquals(List.of("series,attachment size (bytes),median upload time (s),smallest round,largest round",
        "raw,10,0.2,0.1,0.4", "base64,10,1,0.5,1.2", "multipart,10,2.5,2,3", "bulk (per document),10,0.3,0.2,0.4"),
        Files.readAllLines(folder.resolve("upload-time-against-size.csv")));
    List<String> byRound = Files.readAllLines(folder.resolve("each-round-s-figures.csv"));
    assertEquals("n,method,round,median s,min s,uploads verified,uploading s,rests on 8 uploads or 2 s",
        byRound.get(0));
    assertEquals(1 + 3 * 4, byRound.size(), "a row per method and round: " + byRound);
    assertTrue(byRound.contains("1,raw,1,0.2,0.1,2,0.4,no"), byRound.toString());
    assertTrue(byRound.contains("1,base64,2,1.2,1.2,2,2.4,yes"), byRound.toString());
    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.contains("median of 3 rounds, with the range from the smallest to the largest round"), page);
    assertTrue(page.contains("Warning: 4 figure(s) rest on fewer than 8 uploads and less than 2 s of uploading"
        + " (-Drepeat=2; without -Drepeat each figure uploads on until it has one or the other): raw 10^1 round 1"
        + " (2 upload(s), 0.400000 s), raw 10^1 round 2 (2 upload(s), 0.800000 s), raw 10^1 round 3 (2 upload(s),"
        + " 0.200000 s), base64 10^1 round 3 (2 upload(s), 1.000000 s) (see"),
        "raw in every round, base64 in the third only (2.0 and 2.4 s in the others): " + page);
  }

  @Test
  void shouldKeepOneRoundsTablesAsTheyWere(@TempDir Path folder) throws IOException {
    AttachmentPlan plan = plan(Map.of("minExponent", "1", "maxExponent", "1"));
    UploadTally tally = new UploadTally(plan);
    for (AttachmentMethod method : AttachmentMethod.values()) {
      for (int upload = 0; upload < 8; upload++) {
        tally.verified(new Key(method, 1, 1), 0.01 * (upload + 1));
      }
    }

    page(plan, tally).writeTo(folder);

    assertEquals(List.of("n,bytes,raw median s,raw min s,base64 median s,base64 min s,multipart median s,"
            + "multipart min s,bulk median s per request,bulk min s per request,bulk median s per document,"
            + "uploads verified,uploads planned", "1,10,0.045,0.01,0.045,0.01,0.045,0.01,0.045,0.01,0.0045,32,12"),
        Files.readAllLines(folder.resolve("upload-times-by-size.csv")), "8 uploads each, 3 of them planned");
    assertEquals(List.of("series,attachment size (bytes),median upload time (s)", "raw,10,0.045", "base64,10,0.045",
        "multipart,10,0.045", "bulk (per document),10,0.0045"),
        Files.readAllLines(folder.resolve("upload-time-against-size.csv")));
    String page = Files.readString(folder.resolve("summary.html"));
    assertFalse(page.contains("Warning"), "8 uploads each: enough by the rule: " + page);
  }

  @Test
  void shouldMergeTwoInjectorsUploadsIntoTheWholeRunsFigures(@TempDir Path folder) throws IOException {
    // -Drepeat=4 between two injectors: 2 each per method and size.
    Map<AttachmentMethod, List<List<Double>>> times = Map.of(
        AttachmentMethod.RAW, List.of(List.of(0.1, 0.2), List.of(0.3, 0.5)),
        AttachmentMethod.BASE64, List.of(List.of(1.0, 1.0), List.of(2.0, 2.0)),
        AttachmentMethod.MULTIPART, List.of(List.of(2.0, 2.0), List.of(3.0)),
        AttachmentMethod.BULK, List.of(List.of(4.0, 4.0), List.of(6.0, 6.0)));
    String lost = "read back 9 bytes of 10";
    List<AttachmentFigures> injectors = new ArrayList<>();
    for (int injector = 0; injector < 2; injector++) {
      AttachmentPlan plan = plan(Map.of("minExponent", "1", "maxExponent", "1", "repeat", "4",
          "injector", injector + "/2"));
      UploadTally tally = new UploadTally(plan);
      for (Map.Entry<AttachmentMethod, List<List<Double>>> method : times.entrySet()) {
        method.getValue().get(injector).forEach(seconds -> tally.verified(new Key(method.getKey(), 1, 1), seconds));
      }
      if (injector == 1) {
        tally.fail(new Key(AttachmentMethod.MULTIPART, 1, 1), lost);
      }
      injectors.add(new AttachmentFigures(List.of(plan.database()), false, tally.figures()));
    }
    AttachmentSummary summary = AttachmentSummary.of(plan(Map.of("minExponent", "1", "maxExponent", "1",
        "repeat", "4")));

    AttachmentFigures merged = summary.merge(injectors);

    assertEquals(List.of(injectors.get(0).databases().get(0), injectors.get(1).databases().get(0)),
        merged.databases());
    assertTrue(merged.databases().get(1).endsWith("_injector1of2"), merged.databases().toString());
    assertEquals(new Figures(4, List.of(0.1, 0.2, 0.3, 0.5), Map.of()),
        merged.figures(new Key(AttachmentMethod.RAW, 1, 1)), "planned added, times together, injector 0's first");
    assertEquals(new Figures(4, List.of(2.0, 2.0, 3.0), Map.of(lost, 1)),
        merged.figures(new Key(AttachmentMethod.MULTIPART, 1, 1)));
    assertEquals(4, merged.uploads().size(), "one figure per method, size and round");
    assertEquals(merged, SummaryInput.readBack(AttachmentFigures.class, merged), "results.json keeps it as it is");
    Results results = SummaryInput.results("AttachmentUpload", "*/2", List.of(SummaryInput.entry("multipart 10^1", 3,
        Map.of("verify: md5 differs", 1L))));
    SummaryInput.page(summary, results, merged).writeTo(folder);

    assertEquals(List.of("n,bytes,raw median s,raw min s,base64 median s,base64 min s,multipart median s,"
            + "multipart min s,bulk median s per request,bulk min s per request,bulk median s per document,"
            + "uploads verified,uploads planned", "1,10,0.25,0.1,1.5,1,2,2,5,4,0.5,15,16"),
        Files.readAllLines(folder.resolve("upload-times-by-size.csv")), "the median of both injectors' uploads");
    assertEquals(List.of("n,base64 / raw,multipart / raw,bulk per document / raw", "1,6,8,2"),
        Files.readAllLines(folder.resolve("ratios-to-raw.csv")));
    assertEquals(List.of("method,size,failure,uploads,Gatling's errors for the upload request",
        "multipart,10^1," + lost + ",1,verify: md5 differs (1)"),
        Files.readAllLines(folder.resolve("failed-uploads.csv")), "the failure, with the merged entry's messages");
    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.contains("Merged from 2 injectors uploading at the same time"), page);
    assertTrue(page.contains(", databases " + String.join(", ", merged.databases()) + "."), page);
  }

  /** The page of a run of one injector, built as the run builds it. */
  private static SummaryPage page(AttachmentPlan plan, UploadTally tally) {
    return SummaryInput.page(AttachmentSummary.of(plan), SummaryInput.results("AttachmentUpload", null, List.of()),
        new AttachmentFigures(List.of(plan.database()), false, tally.figures()));
  }

  private static AttachmentPlan plan(Map<String, String> settings) {
    return AttachmentPlan.from(Settings.of(settings, Map.of()));
  }
}
