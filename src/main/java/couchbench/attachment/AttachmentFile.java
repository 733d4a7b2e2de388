package couchbench.attachment;

import java.nio.file.Path;

/**
 * A generated file, with what a run checks it against before reuse and what CouchDB must report
 * after an upload of it.
 *
 * @param path where it is
 * @param length its length in bytes
 * @param md5Base64 the base64 of its MD5, as CouchDB writes digests
 */
public record AttachmentFile(Path path, long length, String md5Base64) {

  /** @return the digest CouchDB reports for an attachment with these bytes, e.g. {@code md5-XrY7u+Ae7tCTyyK7j1rNww==} */
  public String digest() {
    return "md5-" + md5Base64;
  }
}
