package couchbench.distributions;

/** Draws key numbers of existing records; one instance per virtual user (not thread-safe). See {@link KeyChoosers}. */
@FunctionalInterface
public interface KeyChooser {

  /** @return the next key number, from 0 to the inserts' {@link InsertSequence#lastAcknowledged()} */
  long next();
}
