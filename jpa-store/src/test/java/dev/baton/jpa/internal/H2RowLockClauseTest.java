package dev.baton.jpa.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * H2 takes a row lock's wait only as a literal: {@link H2Dialect#rowLockClause} writes the call's time left cut to
 * three significant digits, so that the calls of one bound write one statement, which H2 keeps prepared, and never
 * a wait longer than the call's time left.
 */
class H2RowLockClauseTest {

    private final H2Dialect dialect = new H2Dialect("t", "t_seq");

    @Test
    void aCallThatMayNotWaitDoesNotWait() {
        assertThat(clauseFor(0)).isEqualTo("FOR UPDATE NOWAIT");
    }

    @Test
    void theWaitIsTheTimeLeftToThreeSignificantDigitsAndNeverLonger() {
        // a few ms pass between opening the bound and writing the clause: the cut absorbs them
        assertThat(clauseFor(50_050)).isEqualTo("FOR UPDATE WAIT 50.000");
        assertThat(clauseFor(123_456_789)).isEqualTo("FOR UPDATE WAIT 123000.000");
        assertThat(clauseFor(Long.MAX_VALUE / 2_000_000)).isEqualTo("FOR UPDATE WAIT 2140000.000");
    }

    @Test
    void shortWaitsKeepTheirMilliseconds() {
        try (CallBound bound = CallBound.open(900)) {
            String clause = dialect.rowLockClause(bound);
            long millis = Math.round(Double.parseDouble(clause.substring("FOR UPDATE WAIT ".length())) * 1000);
            assertThat(millis).isBetween(1L, 900L);
            assertThat(clause).matches("FOR UPDATE WAIT 0\\.\\d{3}");
        }
    }

    @Test
    void callsOfOneBoundWriteOneStatement() {
        assertThat(clauseFor(15_005)).isEqualTo(clauseFor(15_005)).isEqualTo("FOR UPDATE WAIT 15.000");
    }

    private String clauseFor(long millis) {
        try (CallBound bound = CallBound.open(millis)) {
            return dialect.rowLockClause(bound);
        }
    }
}
