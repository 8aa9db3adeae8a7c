package dev.baton.jpa;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Connections;
import dev.baton.jpa.testing.Provider;

// The matrix: PostgreSQL, MariaDB and H2 (in memory; no outage suite, there is no connection to cut),
// each under Hibernate ORM and EclipseLink, on the provider's own pool (every suite) and on a DataSource
// (jakarta.persistence.nonJtaDataSource, as servers lend connections: the suites of Cell). One top-level
// class per cell, so reports name it.

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

class PostgresqlHibernateDataSourceTest extends Cell {
    PostgresqlHibernateDataSourceTest() {
        super(new Backend(JpaDatabase.POSTGRESQL, Provider.HIBERNATE, Connections.DATA_SOURCE));
    }
}

class PostgresqlEclipselinkDataSourceTest extends Cell {
    PostgresqlEclipselinkDataSourceTest() {
        super(new Backend(JpaDatabase.POSTGRESQL, Provider.ECLIPSELINK, Connections.DATA_SOURCE));
    }
}

class MariadbHibernateDataSourceTest extends Cell {
    MariadbHibernateDataSourceTest() {
        super(new Backend(JpaDatabase.MARIADB, Provider.HIBERNATE, Connections.DATA_SOURCE));
    }
}

class MariadbEclipselinkDataSourceTest extends Cell {
    MariadbEclipselinkDataSourceTest() {
        super(new Backend(JpaDatabase.MARIADB, Provider.ECLIPSELINK, Connections.DATA_SOURCE));
    }
}

class H2HibernateDataSourceTest extends Cell {
    H2HibernateDataSourceTest() {
        super(new Backend(JpaDatabase.H2, Provider.HIBERNATE, Connections.DATA_SOURCE));
    }
}

class H2EclipselinkDataSourceTest extends Cell {
    H2EclipselinkDataSourceTest() {
        super(new Backend(JpaDatabase.H2, Provider.ECLIPSELINK, Connections.DATA_SOURCE));
    }
}
