package couchbench.attachment;

/** The ways AttachmentUpload sends an attachment to CouchDB, in the order they run for each size. */
public enum AttachmentMethod {

  /** The document first, then {@code PUT /db/doc/att?rev=...} with the bytes as the body (standalone). */
  RAW("raw"),
  /** {@code PUT /db/doc} whose JSON holds the attachment inline, base64-encoded. */
  BASE64("base64"),
  /** {@code PUT /db/doc} as {@code multipart/related}: the JSON part, then the bytes. */
  MULTIPART("multipart"),
  /** {@code POST /db/_bulk_docs}: several documents, each with the attachment inline in base64. */
  BULK("bulk");

  private final String label;

  AttachmentMethod(String label) {
    this.label = label;
  }

  /** @return the method's name in request names, tables and charts, e.g. {@code raw} */
  public String label() {
    return label;
  }

  /**
   * The upload's request name in Gatling's report.
   *
   * @param exponent the size is 10^exponent bytes
   * @return e.g. {@code raw 10^6}
   */
  public String requestName(int exponent) {
    return label + " " + AttachmentPlan.sizeName(exponent);
  }

  /**
   * The name of the request that reads the upload back, apart from the upload's time.
   *
   * @param exponent the size is 10^exponent bytes
   * @return e.g. {@code verify raw 10^6}
   */
  public String verifyName(int exponent) {
    return "verify " + requestName(exponent);
  }
}
