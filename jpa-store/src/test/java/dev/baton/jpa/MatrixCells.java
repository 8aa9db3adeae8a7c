package dev.baton.jpa;

import dev.baton.jpa.testing.Provider;

// The matrix: PostgreSQL, MariaDB and H2 (in memory; no outage suite, there is no connection to cut),
// each under Hibernate ORM and EclipseLink. One top-level class per cell, so reports name it.

class PostgresqlHibernateTest extends Matrix.Networked {
    PostgresqlHibernateTest() {
        super(JpaDatabase.POSTGRESQL, Provider.HIBERNATE);
    }
}

class PostgresqlEclipselinkTest extends Matrix.Networked {
    PostgresqlEclipselinkTest() {
        super(JpaDatabase.POSTGRESQL, Provider.ECLIPSELINK);
    }
}

class MariadbHibernateTest extends Matrix.Networked {
    MariadbHibernateTest() {
        super(JpaDatabase.MARIADB, Provider.HIBERNATE);
    }
}

class MariadbEclipselinkTest extends Matrix.Networked {
    MariadbEclipselinkTest() {
        super(JpaDatabase.MARIADB, Provider.ECLIPSELINK);
    }
}

class H2HibernateTest extends Matrix {
    H2HibernateTest() {
        super(JpaDatabase.H2, Provider.HIBERNATE);
    }
}

class H2EclipselinkTest extends Matrix {
    H2EclipselinkTest() {
        super(JpaDatabase.H2, Provider.ECLIPSELINK);
    }
}
