package dev.baton.tck.properties;

/** The names of a sequence's keys, owners and waiters: short in reports; keys made unique per run by a prefix. */
final class Names {

    private Names() {}

    static String key(int key) {
        return "k" + key;
    }

    static String owner(int owner) {
        return "owner-" + owner;
    }

    static String waiter(int waiter) {
        return "waiter-" + waiter;
    }
}
