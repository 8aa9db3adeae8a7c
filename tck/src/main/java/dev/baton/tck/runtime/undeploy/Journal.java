package dev.baton.tck.runtime.undeploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The journal {@link JournalStore} writes, as the test reads it: complete lines only, in order. */
record Journal(List<Call> calls) {

    /** One store call. {@code token} is 0 except for acquire. */
    record Call(String operation, String key, String owner, long token, boolean result) {

        boolean is(String op, String lockKey, String lockOwner) {
            return operation.equals(op) && key.equals(lockKey) && owner.equals(lockOwner);
        }

        @Override
        public String toString() {
            return operation + " " + key + " owner=" + owner + (token > 0 ? " token=" + token : "") + " -> " + result;
        }
    }

    static Journal read(Path file) {
        if (!Files.exists(file)) {
            return new Journal(List.of());
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the journal " + file, e);
        }
        List<Call> calls = new ArrayList<>();
        int end = text.lastIndexOf('\n');
        if (end < 0) {
            return new Journal(calls);
        }
        for (String line : text.substring(0, end).split("\n")) {
            String[] field = line.split("\t", -1);
            if (field.length != 5) {
                throw new IllegalStateException("malformed journal line in " + file + ": " + line);
            }
            calls.add(new Call(
                    field[0],
                    field[1],
                    field[2],
                    field[3].equals("-") ? 0 : Long.parseLong(field[3]),
                    Boolean.parseBoolean(field[4])));
        }
        return new Journal(List.copyOf(calls));
    }

    /** The successful acquires, in order. */
    List<Call> acquired() {
        return calls.stream()
                .filter(c -> c.operation().equals("acquire") && c.result())
                .toList();
    }

    /** Every release call, whatever its result. */
    List<Call> releases() {
        return calls.stream().filter(c -> c.operation().equals("release")).toList();
    }

    /** Whether the lock taken by {@code acquire} was renewed successfully at least once. */
    boolean renewed(Call acquire) {
        return calls.stream().anyMatch(c -> c.is("renew", acquire.key(), acquire.owner()) && c.result());
    }

    /** The index of the first successful release of the lock taken by {@code acquire}, or -1. */
    int releasedAt(Call acquire) {
        for (int i = 0; i < calls.size(); i++) {
            Call c = calls.get(i);
            if (c.is("release", acquire.key(), acquire.owner()) && c.result()) {
                return i;
            }
        }
        return -1;
    }

    /** Every call but renewals, which are counted (they come every few hundred milliseconds). */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        long renewed = 0;
        long refused = 0;
        for (Call c : calls) {
            if (c.operation().equals("renew")) {
                if (c.result()) {
                    renewed++;
                } else {
                    refused++;
                }
            } else {
                text.append("\n  ").append(c);
            }
        }
        return text.append("\n  (and ")
                .append(renewed)
                .append(" successful, ")
                .append(refused)
                .append(" refused renewals)")
                .toString();
    }
}
