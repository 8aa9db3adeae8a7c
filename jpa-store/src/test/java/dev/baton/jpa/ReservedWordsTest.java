package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.internal.Identifiers;
import dev.baton.jpa.testing.TestDatabases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The reserved-word list against the databases themselves: every keyword a database lists that the
 * store accepts as a name works as the table, the sequence and the schema part of either, in every
 * statement the store sends. A database version that reserves a new word fails this test until the
 * word is listed.
 */
class ReservedWordsTest {

    @Test
    void postgresql() throws Exception {
        try (Connection c = TestDatabases.connect(JpaDatabase.POSTGRESQL)) {
            IdentifierProbe probe = new IdentifierProbe(JpaDatabase.POSTGRESQL, c);
            assertThat(probe.failure("analyse"))
                    .as("a word reserved only by PostgreSQL")
                    .isNotNull();
            check(probe);
        }
    }

    @Test
    void mariadb() throws Exception {
        // a database of the test's own: the probe creates and drops tables named like keywords
        String database = "bt_words_" + TestDatabases.runSuffix();
        String url = TestDatabases.url(JpaDatabase.MARIADB);
        try (Connection admin = TestDatabases.connect(JpaDatabase.MARIADB);
                Statement st = admin.createStatement()) {
            st.execute("CREATE DATABASE " + database);
            try (Connection c =
                    DriverManager.getConnection(url.replaceFirst("^(jdbc:mariadb://[^/]+/)[^?]*", "$1" + database))) {
                IdentifierProbe probe = new IdentifierProbe(JpaDatabase.MARIADB, c);
                assertThat(probe.failure("accessible"))
                        .as("a word reserved only by MariaDB")
                        .isNotNull();
                check(probe);
            } finally {
                st.execute("DROP DATABASE " + database);
            }
        }
    }

    @Test
    void h2() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:words_" + TestDatabases.runSuffix());
                Connection pg = TestDatabases.connect(JpaDatabase.POSTGRESQL)) {
            IdentifierProbe probe = new IdentifierProbe(JpaDatabase.H2, c);
            assertThat(probe.failure("qualify"))
                    .as("a word reserved only by H2")
                    .isNotNull();
            Set<String> h2Keywords = probe.keywords();
            assertThat(h2Keywords)
                    .as("H2's keywords are all reserved words there")
                    .allSatisfy(word ->
                            assertThat(Identifiers.isValid(word)).as(word).isFalse());
            // H2 reserves exactly its keywords; PostgreSQL's non-reserved ones show that others pass
            Set<String> words = new TreeSet<>(h2Keywords);
            words.addAll(new IdentifierProbe(JpaDatabase.POSTGRESQL, pg).keywords());
            check(probe, words);
        }
    }

    private static void check(IdentifierProbe probe) throws Exception {
        check(probe, probe.keywords());
    }

    private static void check(IdentifierProbe probe, Set<String> keywords) {
        // the probe sees a reserved word, and a plain name passes
        assertThat(probe.failure("order"))
                .as("'order' in the store's statements")
                .isNotNull();
        assertThat(probe.failure("bt_plain_name")).isNull();
        assertThat(keywords).as("the database's keywords").hasSizeGreaterThan(80);
        List<String> broken = new ArrayList<>();
        int accepted = 0;
        for (String word : keywords) {
            if (!Identifiers.isValid(word)) {
                continue;
            }
            accepted++;
            String failure = probe.failure(word);
            if (failure != null) {
                broken.add(failure);
            }
        }
        assertThat(accepted).as("keywords that are not reserved").isGreaterThan(10);
        assertThat(broken)
                .as("names the store accepts that break its statements")
                .isEmpty();
    }
}
