package dev.baton.jpa;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import org.junit.jupiter.api.Nested;

/** Every suite on POSTGRESQL under HIBERNATE. */
class PostgresqlHibernateTest {

    static final Backend BACKEND = new Backend(JpaDatabase.POSTGRESQL, Provider.HIBERNATE);

    @Nested
    class Contract extends ContractSuite {
        @Override
        protected Backend backend() {
            return BACKEND;
        }
    }

    @Nested
    class Basics extends BasicSuite {
        @Override
        protected Backend backend() {
            return BACKEND;
        }
    }

    @Nested
    class TwoInstances extends TwoInstancesSuite {
        @Override
        protected Backend backend() {
            return BACKEND;
        }
    }

    @Nested
    class CallerTransaction extends CallerTransactionSuite {
        @Override
        protected Backend backend() {
            return BACKEND;
        }
    }

    @Nested
    class Fencing extends FencedWritesSuite {
        @Override
        protected Backend backend() {
            return BACKEND;
        }
    }

    @Nested
    class Schema extends SchemaSuite {
        @Override
        protected Backend backend() {
            return BACKEND;
        }
    }

    @Nested
    class Outage extends OutageSuite {
        @Override
        protected Backend backend() {
            return BACKEND;
        }
    }
}
