package couchbench.targets;

/** What a server said when asked whether it is the kind of server we want. */
record Probe(Outcome outcome, String detail) {

  /** The possible answers, each leading to a different message or decision. */
  enum Outcome {
    /** It is the server we want; the detail names its product and version. */
    ANSWERS,
    /** Nothing listens there; the default port is then free for a local server. */
    REFUSED,
    /** A connection or reply did not come in time, or the host is unknown; the detail says which. */
    NO_ANSWER,
    /** Something answers, but not as the server we want; the detail quotes its reply. */
    NOT_IT,
    /** It wants a login, or rejected the one sent; the detail quotes its reply. */
    UNAUTHORIZED,
    /** The TLS handshake failed; the detail is the whole line saying why and which setting fixes it. */
    TLS_FAILED
  }


  boolean answers() {
    return outcome == Outcome.ANSWERS;
  }
}
