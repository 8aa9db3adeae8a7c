package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Owner tokens: 128 bits each, and no two alike, also when many threads make them at once. */
class OwnerTokensTest {

    @Test
    void aTokenIs128BitsInUrlSafeBase64() {
        String token = OwnerTokens.next();
        assertThat(token).hasSize(22).matches("[A-Za-z0-9_-]+");
        assertThat(Base64.getUrlDecoder().decode(token)).hasSize(16);
    }

    @Test
    void threadsMakingTokensTogetherNeverMakeTheSameOne() throws Exception {
        int threads = 8;
        int each = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<String>>> made = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                made.add(pool.submit(() -> {
                    start.await();
                    List<String> tokens = new ArrayList<>(each);
                    for (int i = 0; i < each; i++) {
                        tokens.add(OwnerTokens.next());
                    }
                    return tokens;
                }));
            }
            start.countDown();
            Set<String> all = new HashSet<>();
            for (Future<List<String>> f : made) {
                all.addAll(f.get(60, TimeUnit.SECONDS));
            }
            assertThat(all).hasSize(threads * each);
        } finally {
            pool.shutdownNow();
        }
    }
}
