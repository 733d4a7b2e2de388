package couchbench.targets;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One URL of -Dcouchdb.url taken apart: the base URL to send requests to, and the user-info it may carry. The setting
 * may list several, comma-separated, one per node of a cluster ({@link #parseAll}).
 */
public record CouchUrl(String baseUrl, Optional<String> user, Optional<String> password) {

  /** A record's own toString would print the password. */
  @Override
  public String toString() {
    return "CouchUrl[" + baseUrl + ", user=" + user.orElse("") + ", password="
        + password.map(p -> Settings.MASK).orElse("") + "]";
  }

  private static final String EXPECTED =
      "expected http://[user:password@]host:port, with @ : / in the password written as %40 %3A %2F";

  /** Parses a URL as the user gave it; the exception names it with its password masked. */
  static CouchUrl parse(String url) {
    URI uri;
    try {
      uri = new URI(url.trim());
    } catch (URISyntaxException e) {
      throw invalid(url);
    }
    String scheme = uri.getScheme();
    if (scheme == null || !scheme.matches("(?i)https?") || uri.getHost() == null) {
      throw invalid(url);
    }
    String port = uri.getPort() == -1 ? "" : ":" + uri.getPort();
    String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
    String base = scheme.toLowerCase() + "://" + uri.getHost() + port + path;
    String userInfo = uri.getUserInfo();
    if (userInfo == null) {
      return new CouchUrl(base, Optional.empty(), Optional.empty());
    }
    int colon = userInfo.indexOf(':');
    return colon < 0
        ? new CouchUrl(base, Optional.of(userInfo), Optional.empty())
        : new CouchUrl(base, Optional.of(userInfo.substring(0, colon)), Optional.of(userInfo.substring(colon + 1)));
  }

  /**
   * Parses -Dcouchdb.url as the user gave it: one URL, or several comma-separated, one per node of a cluster, with the
   * same scheme, each given once.
   *
   * @param urls the setting's value
   * @return the URLs in the order given
   * @throws SettingsException when one is not an http(s) URL, their schemes differ, or one is given twice
   */
  static List<CouchUrl> parseAll(String urls) {
    List<CouchUrl> parsed = new ArrayList<>();
    for (String url : urls.split(",", -1)) {
      CouchUrl node = parse(url);
      for (CouchUrl earlier : parsed) {
        if (earlier.baseUrl.equalsIgnoreCase(node.baseUrl)) {
          throw new SettingsException("-Dcouchdb.url names " + node.baseUrl + " twice: give each node once");
        }
        if (!earlier.scheme().equals(node.scheme())) {
          throw new SettingsException("-Dcouchdb.url mixes http and https (" + earlier.baseUrl + ", " + node.baseUrl
              + "): the nodes of a run share their TLS settings, give them all one scheme");
        }
      }
      parsed.add(node);
    }
    return List.copyOf(parsed);
  }

  private String scheme() {
    return baseUrl.substring(0, baseUrl.indexOf(':'));
  }

  /** {@link #mask} of each comma-separated URL of -Dcouchdb.url. */
  static String maskAll(String urls) {
    return Arrays.stream(urls.split(",", -1)).map(CouchUrl::mask).collect(Collectors.joining(","));
  }

  /**
   * The URL with everything between the user name and the last @ replaced by the mask. It works on the raw text,
   * so a URL too broken to parse is masked too; masking a little too much is fine, leaking is not.
   */
  static String mask(String url) {
    int start = url.indexOf("://");
    int at = url.lastIndexOf('@');
    if (start < 0 || at < start) {
      return url;
    }
    int colon = url.indexOf(':', start + 3);
    if (colon < 0 || colon > at) {
      return url;
    }
    return url.substring(0, colon + 1) + Settings.MASK + url.substring(at);
  }

  private static SettingsException invalid(String url) {
    return new SettingsException("-Dcouchdb.url=" + mask(url) + " is not an http(s) URL (" + EXPECTED + ")");
  }
}
