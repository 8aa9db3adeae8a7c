package dev.baton.docs;

import java.util.regex.Pattern;

/**
 * A link's destination taken apart: a scheme ({@code https}, {@code mailto}; none for a relative link), the path
 * and the fragment (both percent-decoded), and the query as written.
 */
record Destination(String raw, String scheme, String path, String query, String fragment) {

    private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):.*", Pattern.DOTALL);

    static Destination parse(String raw) {
        String rest = raw.strip();
        var scheme = SCHEME.matcher(rest);
        if (scheme.matches() && !looksLikeWindowsDrive(rest)) {
            return new Destination(raw, scheme.group(1).toLowerCase(), rest, null, null);
        }
        String fragment = null;
        int hash = rest.indexOf('#');
        if (hash >= 0) {
            fragment = Html.percentDecode(rest.substring(hash + 1));
            rest = rest.substring(0, hash);
        }
        String query = null;
        int question = rest.indexOf('?');
        if (question >= 0) {
            query = rest.substring(question + 1);
            rest = rest.substring(0, question);
        }
        return new Destination(raw, null, Html.percentDecode(rest), query, fragment);
    }

    private static boolean looksLikeWindowsDrive(String value) {
        return value.length() > 2
                && Character.isLetter(value.charAt(0))
                && value.charAt(1) == ':'
                && (value.charAt(2) == '\\' || value.charAt(2) == '/');
    }

    boolean external() {
        return scheme != null;
    }

    boolean web() {
        return "http".equals(scheme) || "https".equals(scheme);
    }

    /** A link to a place in the same document ({@code #x}) or to nothing ({@code ""}). */
    boolean local() {
        return scheme == null && path.isEmpty();
    }
}
