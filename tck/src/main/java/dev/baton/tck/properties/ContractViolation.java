package dev.baton.tck.properties;

import java.util.List;

/**
 * A store broke the contract in a random sequence of calls: the report is the shortest failing sequence found, call
 * by call with the store's answers, ending with the call whose answer the contract does not allow, and the seed
 * that makes the same sequences again.
 */
public final class ContractViolation extends AssertionError {

    private static final long serialVersionUID = 1L;

    private final transient List<Action> steps;

    ContractViolation(List<String> transcript, List<Action> steps, int originalLength, long seed, int sequence) {
        super("The store broke the contract in " + steps.size() + " calls (random sequence " + sequence + ", "
                + originalLength + " calls, shrunk; seed " + seed + ": run again with -D"
                + StoreProperties.SEED_PROPERTY
                + "=" + seed + "):\n  " + String.join("\n  ", transcript));
        this.steps = List.copyOf(steps);
    }

    /** @return how many calls the shortest failing sequence has */
    public int length() {
        return steps.size();
    }

    List<Action> steps() {
        return steps;
    }
}
