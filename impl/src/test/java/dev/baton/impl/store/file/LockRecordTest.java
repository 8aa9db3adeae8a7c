package dev.baton.impl.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The lock file's record: what it keeps, what an earlier version wrote, and what a partial rewrite leaves. */
class LockRecordTest {

    private static final LockRecord HELD =
            new LockRecord("order:\u00e9\u0000", "owner-1", 41, 1_700_000_060_000L, 4242, "pid:[4026531836]", null);

    @Test
    void aRecordWithATurnReadsBackAsWritten() {
        LockRecord withTurn = HELD.withTurn(new LockRecord.Turn("waiter-7", 1_700_000_000_000L, 1_700_000_001_000L));
        assertThat(LockRecord.decode(withTurn.encode())).contains(withTurn);
        assertThat(LockRecord.decode(HELD.encode())).contains(HELD);
    }

    @Test
    void releaseAndRenewalKeepTheTurn() {
        LockRecord.Turn turn = new LockRecord.Turn("waiter-7", 1_000, 2_000);
        LockRecord withTurn = HELD.withTurn(turn);
        assertThat(withTurn.released().turn()).isEqualTo(turn);
        assertThat(withTurn.released().owner()).isEmpty();
        assertThat(withTurn.renewedUntil(5_000).turn()).isEqualTo(turn);
        assertThat(withTurn.liveTurnAt(1_999)).isEqualTo(turn);
        assertThat(withTurn.liveTurnAt(2_000)).as("a turn ends at its end").isNull();
    }

    @Test
    void anOwnerOrWaiterHoldingTheCrcMarkerDoesNotHideTheRecord() {
        LockRecord odd = new LockRecord("k", "crc=", 3, 99, 1, null, new LockRecord.Turn("w-crc=1", 1, 2));
        assertThat(LockRecord.decode(odd.encode())).contains(odd);
    }

    @Test
    void aRecordOfAVersionWithoutTurnsHasNone() {
        // An earlier version's record: the same lines, no turn lines.
        byte[] earlier = HELD.encode();
        assertThat(new String(earlier, StandardCharsets.US_ASCII)).doesNotContain("turn");
        assertThat(LockRecord.decode(earlier).orElseThrow().turn()).isNull();
    }

    @Test
    void bytesOfALongerOldRecordAfterAShorterNewOneAreIgnored() {
        // A process killed between writing a shorter record over a longer one and truncating the file.
        byte[] longer = HELD.withTurn(new LockRecord.Turn("waiter-with-a-long-name", 1, 2))
                .encode();
        byte[] shorter = HELD.released().encode();
        byte[] file = Arrays.copyOf(longer, longer.length);
        System.arraycopy(shorter, 0, file, 0, shorter.length);
        assertThat(LockRecord.decode(file)).contains(HELD.released());
    }

    @Test
    void aTornRecordHoldsNothing() {
        byte[] whole = HELD.encode();
        assertThat(LockRecord.decode(Arrays.copyOf(whole, whole.length - 3))).isEmpty();
        assertThat(LockRecord.decode(new byte[0])).isEmpty();
    }
}
