package dev.baton.docs.samples.gettingstarted;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The application's data source, on the PostgreSQL every instance shares; the orders and the lock store use it
 * ({@code baton.jpa.data-source=java:app/jdbc/orders}). The same definition as a {@code <data-source>} of
 * {@code web.xml}.
 */
// tag::data-source[]
@DataSourceDefinition(
        name = "java:app/jdbc/orders",
        className = "org.postgresql.ds.PGSimpleDataSource",
        url = "jdbc:postgresql://127.0.0.1:5432/orders?user=postgres")
@ApplicationScoped
public class OrdersDataSource {}
// end::data-source[]
