package dev.baton.jpa.internal;

import dev.baton.jpa.JpaDatabase;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The words that cannot be an unquoted table, sequence or schema name in the store's statements on
 * some supported database: the union of
 * <ul>
 * <li>PostgreSQL: the {@code reserved} and {@code reserved (can be function or type)} keywords
 * ({@code pg_get_keywords()} categories {@code R} and {@code T}) of 15 and 17;</li>
 * <li>MariaDB: the reserved words of its documentation, and every word of
 * {@code information_schema.KEYWORDS} that breaks one of the store's statements on 10.11 and 11.4
 * (some, like {@code value} or {@code offset}, are not in the documented list);</li>
 * <li>H2 2.3: its parser's keywords that are not allowed as identifiers.</li>
 * </ul>
 * The lists were made by trying every keyword each database lists as the table, the sequence and
 * the schema part of either in every statement the store sends; {@code ReservedWordsTest} does it
 * again on the test databases and fails if a word the store accepts breaks a statement. The
 * {@code sql_mode=ORACLE} words of MariaDB and function names under {@code IGNORE_SPACE} are not
 * listed: the store's statements do not run in those modes anyway.
 *
 * <p>Rejecting these names (rather than quoting every identifier) keeps the configured names valid
 * unquoted everywhere else they are written: in the shipped DDL files run by Flyway or Liquibase with
 * the names replaced, in the application's fenced statements and clean-up queries, and with the
 * case folding each database applies to unquoted names (a quoted name is case-sensitive, and
 * PostgreSQL folds to lower case where H2 folds to upper case).
 */
final class ReservedWords {

    private static final Map<JpaDatabase, Set<String>> WORDS = new EnumMap<>(JpaDatabase.class);

    static {
        WORDS.put(JpaDatabase.POSTGRESQL, words("""
            all analyse analyze and any array as asc asymmetric authorization binary both case cast
            check collate collation column concurrently constraint create cross current_catalog
            current_date current_role current_schema current_time current_timestamp current_user
            default deferrable desc distinct do else end except false fetch for foreign freeze from
            full grant group having ilike in initially inner intersect into is isnull join lateral
            leading left like limit localtime localtimestamp natural not notnull null offset on only
            or order outer overlaps placing primary references returning right select session_user
            similar some symmetric system_user table tablesample then to trailing true union unique
            user using variadic verbose when where window with
            """));
        WORDS.put(JpaDatabase.MARIADB, words("""
            accessible add all alter analyze and as asc asensitive before between bigint binary blob
            both by call cascade case cast change char character check collate column condition
            constraint continue convert create cross current_date current_role current_time
            current_timestamp current_user cursor database databases day_hour day_microsecond
            day_minute day_second dec decimal declare default delayed delete delete_domain_id desc
            describe deterministic distinct distinctrow div do_domain_ids double drop dual each else
            elseif enclosed escaped except exists exit explain extract false fetch float float4
            float8 for force foreign from fulltext general grant group having high_priority
            hour_microsecond hour_minute hour_second if ignore ignore_domain_ids ignore_server_ids
            in index infile inner inout insensitive insert int int1 int2 int3 int4 int8 integer
            intersect interval into is iterate join json_arrayagg json_objectagg key keys kill
            leading leave left like limit linear lines load localtime localtimestamp lock long
            longblob longtext loop low_priority master_demote_to_replica master_demote_to_slave
            master_heartbeat_period master_ssl_verify_server_cert match maxvalue mediumblob
            mediumint mediumtext middleint minute_microsecond minute_second mod modifies natural
            no_write_to_binlog not null numeric offset on optimize option optionally or order out
            outer outfile over page_checksum parse_vcol_expr partition portion position precision
            primary procedure purge range read read_write reads real recursive ref_system_id
            references regexp release rename repeat replace require resignal restrict return
            returning revoke right rlike row_number rows schema schemas second_microsecond select
            sensitive separator set show signal slow smallint spatial specific sql sql_after_gtids
            sql_before_gtids sql_big_result sql_calc_found_rows sql_small_result sqlexception
            sqlstate sqlwarning ssl starting stats_auto_recalc stats_persistent stats_sample_pages
            straight_join substring table terminated then tinyblob tinyint tinytext to trailing
            trigger trim true undo union unique unlock unsigned update usage use using utc_date
            utc_time utc_timestamp value values varbinary varchar varcharacter varying when where
            while window with write xor year_month zerofill
            """));
        WORDS.put(JpaDatabase.H2, words("""
            _rowid_ all and any array as asymmetric authorization between case cast check constraint
            cross current_catalog current_date current_path current_role current_schema current_time
            current_timestamp current_user day default distinct else end except exists false fetch
            for foreign from full group having hour if in inner intersect interval is join key left
            like limit localtime localtimestamp minus minute month natural not null offset on or
            order primary qualify right row rownum second select session_user set some symmetric
            system_user table to true uescape union unique unknown user using value values when
            where window with year
            """));
    }

    private ReservedWords() {}

    /**
     * The databases on which a word is reserved.
     *
     * @param word a plain identifier, in any case
     * @return the databases; empty if it is reserved on none
     */
    static Set<JpaDatabase> reservedOn(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        Set<JpaDatabase> on = EnumSet.noneOf(JpaDatabase.class);
        WORDS.forEach((database, words) -> {
            if (words.contains(w)) {
                on.add(database);
            }
        });
        return on;
    }

    private static Set<String> words(String text) {
        return Set.of(text.strip().split("\\s+"));
    }
}
