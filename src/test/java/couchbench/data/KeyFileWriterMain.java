package couchbench.data;

import java.nio.file.Path;

/**
 * A JVM for KeyFileKillIT to kill while it writes: records args[1] keys, prints "writing", writes the key file
 * args[0], prints "written".
 */
public final class KeyFileWriterMain {

  private KeyFileWriterMain() {}

  public static void main(String[] args) {
    KeyFile keys = KeyFile.at(Path.of(args[0]));
    int count = Integer.parseInt(args[1]);
    for (int i = 0; i < count; i++) {
      keys.record(String.format("%032d", i)); // as long as an md5-hex key
    }
    System.out.println("writing");
    keys.write();
    System.out.println("written");
  }
}
