package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.Together;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
    void theEncodingIsTheJdksUrlSafeBase64WithoutPadding() {
        java.util.Random random = new java.util.Random(42);
        Base64.Encoder jdk = Base64.getUrlEncoder().withoutPadding();
        for (int round = 0; round < 10_000; round++) {
            byte[] bytes = new byte[20];
            random.nextBytes(bytes);
            int at = round % 5;
            assertThat(OwnerTokens.encode(bytes, at))
                    .isEqualTo(jdk.encodeToString(java.util.Arrays.copyOfRange(bytes, at, at + 16)));
        }
        byte[] edges = new byte[16];
        assertThat(OwnerTokens.encode(edges, 0)).isEqualTo(jdk.encodeToString(edges));
        java.util.Arrays.fill(edges, (byte) 0xff);
        assertThat(OwnerTokens.encode(edges, 0)).isEqualTo(jdk.encodeToString(edges));
    }

    @Test
    void threadsMakingTokensTogetherNeverMakeTheSameOne() throws Exception {
        int threads = 8;
        int each = 20_000;
        List<List<String>> made = Together.call(threads, thread -> {
            List<String> tokens = new ArrayList<>(each);
            for (int i = 0; i < each; i++) {
                tokens.add(OwnerTokens.next());
            }
            return tokens;
        });
        Set<String> all = new HashSet<>();
        made.forEach(all::addAll);
        assertThat(all).hasSize(threads * each);
    }
}
