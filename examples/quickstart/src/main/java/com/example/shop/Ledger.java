package com.example.shop;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** What an order has been paid, in the shop's table {@code paid(order_id, cents)}. */
@ApplicationScoped
public class Ledger {

    @Resource(lookup = ShopDataSource.NAME)
    DataSource shop;

    /** Creates the table when it is missing: the quick start has no migrations. */
    @PostConstruct
    void createTable() {
        try (Connection connection = shop.getConnection();
                Statement create = connection.createStatement()) {
            create.execute("CREATE TABLE IF NOT EXISTS paid (order_id BIGINT PRIMARY KEY, cents BIGINT NOT NULL)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the table paid", e);
        }
    }

    public long paid(long orderId) {
        try (Connection connection = shop.getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT cents FROM paid WHERE order_id = ?")) {
            select.setLong(1, orderId);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read what order " + orderId + " was paid", e);
        }
    }

    public void record(long orderId, long cents) {
        try (Connection connection = shop.getConnection();
                PreparedStatement update = connection.prepareStatement("UPDATE paid SET cents = ? WHERE order_id = ?");
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO paid (order_id, cents) VALUES (?, ?)")) {
            update.setLong(1, cents);
            update.setLong(2, orderId);
            if (update.executeUpdate() == 0) {
                insert.setLong(1, orderId);
                insert.setLong(2, cents);
                insert.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record what order " + orderId + " was paid", e);
        }
    }
}
