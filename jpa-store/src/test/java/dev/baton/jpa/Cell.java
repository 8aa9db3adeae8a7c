package dev.baton.jpa;

import dev.baton.jpa.testing.Backend;
import org.junit.jupiter.api.Nested;

/**
 * The suites of the store's operations on one cell (a database under a JPA provider, on a pool or a data
 * source), each a {@link Nested} class: what every way to the connections must pass. {@link Matrix} adds the
 * rest for the provider's own pool.
 */
abstract class Cell {

    private final Backend backend;

    Cell(Backend backend) {
        this.backend = backend;
    }

    Backend backend() {
        return backend;
    }

    @Nested
    class Basics extends BasicSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }

    @Nested
    class TwoInstances extends TwoInstancesSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }

    @Nested
    class CallerTransaction extends CallerTransactionSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }

    @Nested
    class Fencing extends FencedWritesSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }

    @Nested
    class Shared extends SharedLeasesSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }

    @Nested
    class BoundedCalls extends BoundedCallsSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }
}
