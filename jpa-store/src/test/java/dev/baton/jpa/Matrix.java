package dev.baton.jpa;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import org.junit.jupiter.api.Nested;

/**
 * One cell of the test matrix (a database under a JPA provider) with every suite as a {@link Nested}
 * class. A concrete {@code *Test} class per cell names the combination.
 */
abstract class Matrix {

    private final Backend backend;

    Matrix(JpaDatabase database, Provider provider) {
        this.backend = new Backend(database, provider);
    }

    Backend backend() {
        return backend;
    }

    @Nested
    class Contract extends ContractSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
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
    class BoundedCalls extends BoundedCallsSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }

    @Nested
    class Turns extends TurnsSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }

    @Nested
    class Schema extends SchemaSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }

    @Nested
    class SchemaChecks extends SchemaCheckSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }

    @Nested
    class SequenceFloor extends SequenceFloorSuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }

    /** A database reached over the network: adds the outage suite (a proxy cuts its connections). */
    abstract static class Networked extends Matrix {

        Networked(JpaDatabase database, Provider provider) {
            super(database, provider);
        }

        @Nested
        class Outage extends OutageSuite {
            @Override
            protected Backend backend() {
                return Networked.this.backend();
            }
        }
    }
}
