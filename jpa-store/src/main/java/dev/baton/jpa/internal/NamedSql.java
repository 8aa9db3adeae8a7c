package dev.baton.jpa.internal;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statement written with named parameters ({@code {key}}, {@code {owner}}, ...), turned into JDBC's
 * positional {@code ?}: the turn statements use one value in many places, and numbering them by hand
 * is where binding mistakes hide.
 */
final class NamedSql {

    private static final Pattern PARAMETER = Pattern.compile("\\{([a-z]+)}");

    private final String sql;
    private final List<String> names;

    private NamedSql(String sql, List<String> names) {
        this.sql = sql;
        this.names = names;
    }

    /**
     * @param text the statement, with {@code {name}} for each parameter (lower-case letters)
     * @return the statement with {@code ?} in their place
     */
    static NamedSql of(String text) {
        List<String> names = new ArrayList<>();
        Matcher m = PARAMETER.matcher(text);
        StringBuilder sql = new StringBuilder();
        while (m.find()) {
            names.add(m.group(1));
            m.appendReplacement(sql, "?");
        }
        m.appendTail(sql);
        return new NamedSql(sql.toString(), List.copyOf(names));
    }

    /** @return the statement with positional parameters */
    String sql() {
        return sql;
    }

    /**
     * Binds every occurrence of every parameter.
     *
     * @param ps a statement prepared from {@link #sql()} (possibly with a prefix without parameters)
     * @param first the index of the statement's first parameter ({@link Dialect#firstParameter()})
     * @param values the values by name; each name of the statement must have one
     * @throws SQLException if binding failed
     */
    void bind(PreparedStatement ps, int first, Map<String, Object> values) throws SQLException {
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (!values.containsKey(name)) {
                throw new IllegalArgumentException("no value for parameter {" + name + "} of " + sql);
            }
            Object value = values.get(name);
            if (value instanceof String s) {
                ps.setString(first + i, s);
            } else if (value instanceof Long l) {
                ps.setLong(first + i, l);
            } else {
                throw new IllegalArgumentException("parameter {" + name + "}: unsupported value " + value);
            }
        }
    }
}
