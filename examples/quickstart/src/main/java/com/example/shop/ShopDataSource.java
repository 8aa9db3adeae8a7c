package com.example.shop;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The shop's database, which every instance shares: the orders live there, and so do Baton's locks. A data source the
 * server defines (asadmin, jboss-cli, server.xml) does as well; the runtime guides show each server's way.
 */
// tag::datasource[]
@DataSourceDefinition(
        name = ShopDataSource.NAME,
        className = "org.postgresql.ds.PGSimpleDataSource",
        url = "jdbc:postgresql://127.0.0.1:5432/shop",
        user = "shop",
        password = "shop")
// end::datasource[]
@ApplicationScoped
public class ShopDataSource {
    public static final String NAME = "java:app/jdbc/shop";
}
