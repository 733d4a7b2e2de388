package couchbench.data;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.commons.codec.binary.Hex;
import org.apache.commons.codec.digest.DigestUtils;

/** Keys made as seed 000's memset.php made them: the md5 hex digest of a random number. */
public final class Md5Keys {

  // One digest per thread: MessageDigest.getInstance per key looks the provider up every time (MemSet makes a key
  // per request). A digest resets itself after digest(), and a virtual user's session runs on one thread at a time.
  private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(DigestUtils::getMd5Digest);

  private Md5Keys() {}

  /**
   * A new key: 32 lowercase hex characters. The number is a random long rather than PHP's 31-bit
   * rand(), so that two users practically never write the same key.
   *
   * @return the key
   */
  public static String random() {
    return of(ThreadLocalRandom.current().nextLong());
  }

  /** @return the md5 hex digest of the number's decimal text */
  static String of(long number) {
    return Hex.encodeHexString(MD5.get().digest(Long.toString(number).getBytes(StandardCharsets.US_ASCII)));
  }
}
