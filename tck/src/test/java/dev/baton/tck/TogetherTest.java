package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TogetherTest {

    @Test
    void everyThreadRunsOnceAndTheResultsComeByIndex() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        assertThat(Together.call(5, thread -> {
                    runs.incrementAndGet();
                    return thread * 10;
                }))
                .containsExactly(0, 10, 20, 30, 40);
        assertThat(runs).hasValue(5);
    }

    @Test
    void theThreadsAreReleasedTogether() throws Exception {
        int threads = 6;
        CountDownLatch allStarted = new CountDownLatch(threads);
        // each thread waits for all the others: only threads that run at the same time get through
        Together.run(threads, thread -> {
            allStarted.countDown();
            assertThat(allStarted.await(30, TimeUnit.SECONDS)).isTrue();
        });
    }

    @Test
    void theFirstFailureIsRethrownWithTheOthersSuppressed() {
        IOException first = new IOException("thread 1");
        AssertionError second = new AssertionError("thread 3");
        assertThatThrownBy(() -> Together.run(4, thread -> {
                    if (thread == 1) {
                        throw first;
                    }
                    if (thread == 3) {
                        throw second;
                    }
                }))
                .isSameAs(first)
                .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(second));
    }

    @Test
    void threadsThatDoNotFinishInTimeFailTheRun() {
        assertThatThrownBy(() -> Together.run(2, Duration.ofMillis(200), thread -> {
                    if (thread == 1) {
                        Thread.sleep(30_000);
                    }
                }))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("-1]")
                .hasMessageContaining("did not finish within PT0.2S")
                .hasMessageContaining(TimeFactor.PROPERTY);
    }
}
