package couchbench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Whether a page couchbench wrote opens without a network: every src and href is embedded data or a relative path. */
public final class OfflinePage {

  private static final Pattern REFERENCE = Pattern.compile("(?:src|href)\\s*=\\s*\"([^\"]*)\"");

  private OfflinePage() {}

  /**
   * @param page an HTML file
   * @return true when no src or href has a scheme other than data: or starts with //
   */
  public static boolean fetchesNothing(Path page) {
    String html;
    try {
      html = Files.readString(page);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Matcher reference = REFERENCE.matcher(html);
    while (reference.find()) {
      String target = reference.group(1).strip();
      if (target.startsWith("//") || (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") && !target.startsWith("data:"))) {
        return false;
      }
    }
    return !html.contains("@import") && !html.contains("url(http");
  }
}
