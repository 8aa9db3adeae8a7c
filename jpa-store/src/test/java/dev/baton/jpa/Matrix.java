package dev.baton.jpa;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import org.junit.jupiter.api.Nested;

/**
 * One cell of the test matrix (a database under a JPA provider, on its own pool) with every suite as a
 * {@link Nested} class: those of {@link Cell} and the contract (with its store properties), turns and
 * schema suites. A concrete {@code *Test} class per cell names the combination.
 */
abstract class Matrix extends Cell {

    Matrix(JpaDatabase database, Provider provider) {
        super(new Backend(database, provider));
    }

    @Nested
    class Contract extends ContractSuite {
        @Override
        protected Backend backend() {
            return Matrix.this.backend();
        }
    }

    @Nested
    class Turns extends TurnsSuite {
        @Override
        protected Backend backend() {
            return Matrix.this.backend();
        }
    }

    @Nested
    class Properties extends PropertiesSuite {
        @Override
        protected Backend backend() {
            return Matrix.this.backend();
        }
    }

    @Nested
    class Schema extends SchemaSuite {
        @Override
        protected Backend backend() {
            return Matrix.this.backend();
        }
    }

    @Nested
    class SchemaChecks extends SchemaCheckSuite {
        @Override
        protected Backend backend() {
            return Matrix.this.backend();
        }
    }

    @Nested
    class SequenceFloor extends SequenceFloorSuite {
        @Override
        protected Backend backend() {
            return Matrix.this.backend();
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
