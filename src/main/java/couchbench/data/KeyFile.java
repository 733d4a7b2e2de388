package couchbench.data;

import couchbench.startup.AtExit;
import couchbench.startup.Console;
import io.gatling.javaapi.core.Session;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A CSV key file, header {@code key}, one key per line: the keys a write simulation saw the server
 * acknowledge, and only those, for a read simulation to read back.
 *
 * <p>The keys go to disk during the run, so that memory does not grow with the run's length and a
 * run that dies keeps what it had acknowledged: {@link #record} only queues a key (no lock, no I/O
 * on the thread that saw the reply); a thread of the key file's own appends the queue to a part
 * file beside the target ({@link #partFile}) and flushes it every {@link #FLUSH_MILLIS} ms. When the
 * run ends, {@link #write} moves the part file over the target in one atomic rename, so the
 * previous file is replaced whole or not at all. A run that ends otherwise (Ctrl-C, a crash, a stop
 * on an error) flushes what it has and leaves the part file, under the name it printed when it
 * opened it; a SIGKILL leaves it as of the last flush, its last line possibly cut. A part file that cannot be
 * appended to (its disk is full) is cut back to its last flush, whole lines only, and the run stops with one line naming
 * the disk: a run that goes on would acknowledge keys it cannot keep.
 */
public final class KeyFile {

  /** The CSV header, also the feeder's attribute name. */
  public static final String HEADER = "key";

  /** How often queued keys reach the file: the most a SIGKILL loses is this much of the run's keys. */
  static final long FLUSH_MILLIS = 200;

  /** The most keys {@link #read} holds for a read step to draw from: about 80 MB of md5 keys. */
  public static final int SAMPLE = 1_000_000;

  private final Path path;
  private final Path part;
  private final Queue<String> queue = new ConcurrentLinkedQueue<>();
  private final LongAdder recorded = new LongAdder();
  private final Thread flusher;
  // Guarded by this: only the flusher, write() and keepPart at exit touch the file, never record().
  private Writer out;
  private boolean ended;
  // Guarded by this: the part file's length after its last flush, every line in it whole.
  private long flushed;

  private KeyFile(Path path) {
    this.path = path;
    this.part = partFile(path, ProcessHandle.current().pid());
    flusher = new Thread(this::flushEvery, "couchbench key file " + path.getFileName());
    flusher.setDaemon(true);
    flusher.start();
    AtExit.run(this::keepPart);
  }

  /**
   * An empty key file to fill during a run; its part file is created within {@link #FLUSH_MILLIS},
   * and its name printed.
   *
   * @param path where it will be written
   * @return the key file
   */
  public static KeyFile at(Path path) {
    return new KeyFile(path);
  }

  /**
   * The file a run's keys go to before the run ends: beside the key file, named after it and the
   * run's process, so that two runs writing the same key file do not mix their keys.
   *
   * @param path the key file
   * @param pid the writing JVM's process id
   * @return {@code <path>.<pid>.part}
   */
  public static Path partFile(Path path, long pid) {
    return path.resolveSibling(path.getFileName() + "." + pid + ".part");
  }

  /**
   * Records a key the server acknowledged; safe from any thread, and cheap: one queue node. The
   * write steps record each key once (they are random: md5 of a random long, a random 64-bit id).
   *
   * @param key the key
   */
  public void record(String key) {
    queue.offer(key);
    recorded.increment();
  }

  /** @return the keys recorded so far */
  public long size() {
    return recorded.sum();
  }

  /**
   * Ends the run's key file: the keys still queued are appended, and the part file takes the key
   * file's name, atomically (a file with only the header when no key was recorded).
   *
   * @return the file written
   */
  public Path write() {
    synchronized (this) {
      try {
        drain();
        if (out != null) {
          out.close();
        }
        ended = true;
        return Files.move(part, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new UncheckedIOException("could not write the key file " + path + " (the keys so far are in "
            + part + ")", e);
      }
    }
  }

  // Not stopped by an interrupt: that would close an interruptible channel under a write. It sees ended.
  private void flushEvery() {
    try {
      while (true) {
        Thread.sleep(FLUSH_MILLIS);
        synchronized (this) {
          if (ended) {
            return;
          }
          drain();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // nobody interrupts it; write() drains what is left
    } catch (IOException e) {
      // Out of the lock: System.exit runs the shutdown hooks, and keepPart takes it.
      Console.say("stopped: " + cutBack(e));
      System.exit(1);
    }
  }

  /**
   * After a failed append: the part file cut back to its last flush, so that it holds whole lines only, each an
   * acknowledged key, and ended.
   *
   * @return one line: the key file, the disk, what is kept and what fixes it
   */
  private synchronized String cutBack(IOException failure) {
    ended = true;
    try (FileChannel file = FileChannel.open(part, StandardOpenOption.WRITE)) {
      file.truncate(flushed);
    } catch (IOException e) {
      // It says what it holds as it is: a reader leaves a cut last line out.
    }
    long keys = Math.max(0, countLines() - 1);
    return "key file " + path + ": its part file " + part + " cannot be written (" + failure.getMessage() + ") on "
        + disk(part) + ": free space there, or give -DkeyFile on another disk; the " + keys + " keys acknowledged up to"
        + " its last flush are in " + part + ", whole lines only";
  }

  private long countLines() {
    try (var lines = Files.lines(part, StandardCharsets.UTF_8)) {
      return lines.count();
    } catch (IOException | UncheckedIOException e) {
      return 0;
    }
  }

  /** @return e.g. "the disk of /mnt/keys (tmpfs, 0 bytes free)" */
  private static String disk(Path file) {
    try {
      FileStore store = Files.getFileStore(file.toAbsolutePath().getParent());
      return "the disk of " + file.toAbsolutePath().getParent() + " (" + store.name() + " " + store.type() + ", "
          + store.getUsableSpace() + " bytes free)";
    } catch (IOException e) {
      return "the disk of " + file.toAbsolutePath().getParent();
    }
  }

  /** Appends the queued keys to the part file, opening it first if need be, and flushes. */
  private void drain() throws IOException {
    if (out == null) {
      Files.createDirectories(path.toAbsolutePath().getParent());
      // A FileOutputStream, not a channel: an interrupt of the writing thread cannot close it mid-write.
      out = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(part.toFile()), StandardCharsets.UTF_8),
          1 << 16);
      out.write(HEADER + "\n");
      Console.say("key file: acknowledged keys go to " + part + " as they come; it becomes " + path
          + " when the run ends, and stays " + part + " if the run is cut short");
    }
    for (String key = queue.poll(); key != null; key = queue.poll()) {
      out.write(key);
      out.write('\n');
    }
    out.flush();
    flushed = Files.size(part);
  }

  /**
   * At JVM exit without {@link #write}: keeps what was acknowledged in the part file, and says where;
   * a part file without keys (a run stopped before its load) is removed.
   */
  private void keepPart() {
    synchronized (this) {
      if (ended) {
        return;
      }
      ended = true;
      try {
        if (size() == 0) {
          if (out != null) {
            out.close();
          }
          Files.deleteIfExists(part);
          return;
        }
        drain();
        out.close();
        Console.say("key file: the run did not end normally; its " + size() + " acknowledged keys are in " + part
            + " (" + path + " is untouched; pass -DkeyFile=" + part + " to read them)");
      } catch (IOException e) {
        Console.say("could not keep the keys of the run in " + part + " (" + e.getMessage() + ")");
      }
    }
  }

  /**
   * Reads a key file written by a write simulation, for a read step: at most {@link #SAMPLE} keys
   * are held (see {@link #sample}); a cut last line, or a sample taken, is said in one line each.
   *
   * @param path the file
   * @param writer the simulation that writes such files, named in the error
   * @param keyProblem what is wrong with a key for its reader, empty when it can be sent
   * @return the keys, at least one
   * @throws KeyFileException when the file is missing, unreadable, not a key file, empty, or holds
   *     a key the reader cannot send
   */
  public static Keys read(Path path, String writer, Function<String, Optional<String>> keyProblem) {
    Keys keys = sample(path, writer, keyProblem, SAMPLE);
    keys.notes().forEach(Console::say);
    return keys;
  }

  /**
   * What a read took from a key file.
   *
   * @param file the key file
   * @param keys the keys, all of them or a uniform random sample when there are more
   * @param total the keys in the file
   * @param notes one line each: a cut last line dropped, a sample taken
   */
  public record Keys(Path file, List<String> keys, long total, List<String> notes) {

    /** @return e.g. "all 12,000 keys of data/keys/memcache.csv", or "a random sample of 1,000,000 of the ..." */
    public String describe() {
      String of = String.format("%,d keys of %s", total, file);
      return keys.size() == total ? "all " + of : String.format("a random sample of %,d of the %s", keys.size(), of);
    }
  }

  /**
   * Reads a key file written by a write simulation, line by line: every key is checked, at most
   * {@code sample} are kept (a reservoir sample, uniform over the file). A last line without its
   * line break was cut by a killed writer and is dropped, with a note.
   *
   * @param path the file
   * @param writer the simulation that writes such files, named in the error
   * @param keyProblem what is wrong with a key for its reader, empty when it can be sent
   * @param sample the most keys to keep
   * @return the keys, at least one
   * @throws KeyFileException when the file is missing, unreadable, not a key file, empty, or holds
   *     a key the reader cannot send
   */
  static Keys sample(Path path, String writer, Function<String, Optional<String>> keyProblem, int sample) {
    try {
      boolean cut = lastLineCut(path);
      List<String> keys = new ArrayList<>();
      List<String> notes = new ArrayList<>();
      long total = 0;
      try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
        String header = in.readLine();
        if (header == null || !header.strip().equals(HEADER)) {
          throw new KeyFileException("key file " + path + " does not start with the header line '"
              + HEADER + "': is it a key file written by " + writer + "?");
        }
        // A line is judged once the next is read: only then is it known not to be the cut last one.
        String line = in.readLine();
        for (long number = 2; line != null; number++) {
          String next = in.readLine();
          if (next == null && cut) {
            notes.add("key file " + path + ": its last line, line " + number + ", was cut off (the run writing it"
                + " was killed): it is left out");
            break;
          }
          if (!line.isEmpty()) {
            Optional<String> problem = keyProblem.apply(line);
            if (problem.isPresent()) {
              // Numbered as an editor numbers lines: blank lines count.
              throw new KeyFileException("key file " + path + " line " + number + ": " + problem.get()
                  + "; fix or regenerate the file with " + writer);
            }
            total++;
            keepSampled(keys, line, total, sample);
          }
          line = next;
        }
      }
      if (total == 0) {
        throw new KeyFileException("key file " + path + " holds no keys: run " + writer
            + " (long enough for some writes to succeed) first");
      }
      if (total > keys.size()) {
        notes.add("key file " + path + ": " + total + " keys; reads draw from a random sample of " + keys.size()
            + " of them, so that they need not all be held in memory");
      }
      return new Keys(path, List.copyOf(keys), total, List.copyOf(notes));
    } catch (NoSuchFileException e) {
      throw new KeyFileException("key file " + path + " does not exist: run " + writer
          + " first, which writes it, or point -DkeyFile at another key file");
    } catch (IOException | UncheckedIOException e) {
      throw new KeyFileException("key file " + path + " cannot be read (" + e.getMessage() + ")");
    }
  }

  /** Reservoir sampling (Vitter's algorithm R): each of the first {@code seen} keys is kept with equal chance. */
  private static void keepSampled(List<String> keys, String key, long seen, int sample) {
    if (keys.size() < sample) {
      keys.add(key);
      return;
    }
    long slot = ThreadLocalRandom.current().nextLong(seen);
    if (slot < sample) {
      keys.set((int) slot, key);
    }
  }

  /**
   * Whether the file ends in the middle of a line: a writer killed between two flushes of a line.
   *
   * @param path a key file or part file
   * @return true when its last byte is not a line break
   * @throws IOException when it cannot be read
   */
  public static boolean lastLineCut(Path path) throws IOException {
    try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
      if (file.size() == 0) {
        return false;
      }
      ByteBuffer last = ByteBuffer.allocate(1);
      file.read(last, file.size() - 1);
      return last.get(0) != '\n';
    }
  }

  /**
   * Draws a key at random, as seed 000's read scripts picked them, into the session under
   * {@link #HEADER}. It runs in the virtual user's own thread: a Gatling feeder would hand every
   * draw to its one feed actor and back, a thread switch per request that costs more than a
   * memcache get.
   *
   * @param keys the keys, at least one when the first key is drawn; a supplier, so that a read
   *     step can be built before the write step of the same run has produced them
   * @return the session step, for {@code exec}
   */
  public static Function<Session, Session> randomKey(Supplier<List<String>> keys) {
    return session -> {
      List<String> all = keys.get();
      return session.set(HEADER, all.get(ThreadLocalRandom.current().nextInt(all.size())));
    };
  }
}
