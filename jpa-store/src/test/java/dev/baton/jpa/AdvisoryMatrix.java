package dev.baton.jpa;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;

/**
 * One cell of the advisory mode's matrix (PostgreSQL or MariaDB under a JPA provider): the TCK and its store
 * properties, two instances racing, and the advisory suite, each a {@link Nested} class. A concrete
 * {@code *Test} class per cell names the combination.
 */
@Tag("advisory")
abstract class AdvisoryMatrix {

    private final Backend backend;

    AdvisoryMatrix(JpaDatabase database, Provider provider) {
        this.backend = new Backend(database, provider);
    }

    @Nested
    class Contract extends ContractSuite {
        @Override
        protected Backend backend() {
            return backend;
        }

        @Override
        protected LockMode mode() {
            return LockMode.ADVISORY;
        }
    }

    @Nested
    class Properties extends PropertiesSuite {
        @Override
        protected Backend backend() {
            return backend;
        }

        @Override
        protected LockMode mode() {
            return LockMode.ADVISORY;
        }
    }

    @Nested
    class TwoInstances extends TwoInstancesSuite {
        @Override
        protected Backend backend() {
            return backend;
        }

        @Override
        protected LockMode mode() {
            return LockMode.ADVISORY;
        }
    }

    @Nested
    class Advisory extends AdvisorySuite {
        @Override
        protected Backend backend() {
            return backend;
        }
    }
}

// One top-level class per cell, so reports name it.

class PostgresqlAdvisoryHibernateTest extends AdvisoryMatrix {
    PostgresqlAdvisoryHibernateTest() {
        super(JpaDatabase.POSTGRESQL, Provider.HIBERNATE);
    }
}

class PostgresqlAdvisoryEclipselinkTest extends AdvisoryMatrix {
    PostgresqlAdvisoryEclipselinkTest() {
        super(JpaDatabase.POSTGRESQL, Provider.ECLIPSELINK);
    }
}

class MariadbAdvisoryHibernateTest extends AdvisoryMatrix {
    MariadbAdvisoryHibernateTest() {
        super(JpaDatabase.MARIADB, Provider.HIBERNATE);
    }
}

class MariadbAdvisoryEclipselinkTest extends AdvisoryMatrix {
    MariadbAdvisoryEclipselinkTest() {
        super(JpaDatabase.MARIADB, Provider.ECLIPSELINK);
    }
}
