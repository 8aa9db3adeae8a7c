package dev.baton.impl.config;

/**
 * The optimal string alignment distance (Damerau-Levenshtein with no substring edited twice): the fewest
 * insertions, deletions, substitutions and transpositions of two adjacent characters that turn one string into
 * the other. A transposition counts as one edit, as a typist makes it ({@code tabel} for {@code table}).
 */
final class EditDistance {

    private EditDistance() {}

    /**
     * @param a a string
     * @param b another
     * @return the number of edits between them
     */
    static int between(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
