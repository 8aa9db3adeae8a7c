package dev.baton.jpa.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.JpaDatabase;
import dev.baton.jpa.testing.TestDatabases;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * pgjdbc's own read of a notification: after one arrives, {@code getNotifications} looks for more with a
 * read of up to 1 ms (meant for once a second; in pgjdbc 42.7.x a read that timed out does not set the time
 * of the next, so it is every time). Measured on two listening connections of the same channel, one
 * as pgjdbc comes, one with that read switched off as the store's listener does, on notifications a little
 * over a second apart (as a key released less often than once a second is). Each figure is the time
 * {@code getNotifications} takes to hand over a notification that is already in the socket: pgjdbc's own
 * share of the hand-off, apart from the network and the scheduler.
 */
class NotificationReadTest {

    private static final int ROUNDS = 10;

    @Test
    void theListenerSavesPgjdbcsMillisecondPerNotification() throws Exception {
        String channel = "baton_release:latency_" + TestDatabases.runSuffix();
        try (Connection plain = TestDatabases.connect(JpaDatabase.POSTGRESQL);
                Connection tuned = TestDatabases.connect(JpaDatabase.POSTGRESQL);
                Connection sender = TestDatabases.connect(JpaDatabase.POSTGRESQL);
                PreparedStatement send = sender.prepareStatement("SELECT pg_notify(?, 'k')")) {
            for (Connection c : List.of(plain, tuned)) {
                try (Statement st = c.createStatement()) {
                    st.execute("LISTEN \"" + channel + "\"");
                }
            }
            ReleaseListener.Notifications asItComes = ReleaseListener.Notifications.of(plain, false);
            ReleaseListener.Notifications withoutRead = ReleaseListener.Notifications.of(tuned, true);
            send.setString(1, channel);
            List<Double> plainMillis = new ArrayList<>();
            List<Double> tunedMillis = new ArrayList<>();
            for (int round = 0; round <= ROUNDS; round++) {
                Thread.sleep(1_100); // past pgjdbc's one-second pause between its extra reads, where it keeps one
                send.executeQuery().close();
                Thread.sleep(50); // both notifications are in the sockets: what follows is pgjdbc alone
                double p = readMillis(asItComes);
                double t = readMillis(withoutRead);
                if (round > 0) { // the first read of each connection peeks once anyway
                    plainMillis.add(p);
                    tunedMillis.add(t);
                }
            }
            System.out.printf(
                    "getNotifications of a waiting notification, ms, pgjdbc as it comes: median %.3f min %.3f %s%n",
                    median(plainMillis), Collections.min(plainMillis), plainMillis);
            System.out.printf(
                    "getNotifications of a waiting notification, ms, extra read off:      median %.3f min %.3f %s%n",
                    median(tunedMillis), Collections.min(tunedMillis), tunedMillis);
            assertThat(Collections.min(plainMillis))
                    .as("pgjdbc as it comes waits its 1 ms read every time")
                    .isGreaterThanOrEqualTo(1.0);
            assertThat(median(tunedMillis))
                    .as("median without the extra read, against %s", plainMillis)
                    .isLessThan(median(plainMillis) - 0.5);
        }
    }

    /** How long pgjdbc takes to hand over a notification that is already in the socket. */
    private static double readMillis(ReleaseListener.Notifications listening) throws Exception {
        long start = System.nanoTime();
        assertThat(listening.read(5_000)).hasSize(1);
        return (System.nanoTime() - start) / 1e6;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
