package couchbench.data;

import java.util.concurrent.ThreadLocalRandom;
import org.apache.commons.codec.digest.DigestUtils;

/** Keys made as seed 000's memset.php made them: the md5 hex digest of a random number. */
public final class Md5Keys {

  private Md5Keys() {}

  /**
   * A new key: 32 lowercase hex characters. The number is a random long rather than PHP's 31-bit
   * rand(), so that two users practically never write the same key.
   *
   * @return the key
   */
  public static String random() {
    return DigestUtils.md5Hex(Long.toString(ThreadLocalRandom.current().nextLong()));
  }
}
