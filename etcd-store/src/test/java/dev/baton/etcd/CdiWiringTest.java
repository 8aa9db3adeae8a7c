package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.etcd.testing.TestEtcd;
import dev.baton.impl.cdi.BatonExtension;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end in Weld SE: {@code baton.store=etcd} and {@code baton.etcd.*} from MicroProfile Config (the store
 * found through its factory's service file), and the runtime's {@link Locks} on top; the lock is an etcd key bound to
 * a lease, whose revision is the lock's fencing token.
 */
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class})
class CdiWiringTest {

    static final String ROOT = "/cdi-" + UUID.randomUUID();

    @Inject
    Locks locks;

    /** Read by the application's default MicroProfile Config, whose sources include the system properties. */
    static final Map<String, String> SETTINGS = Map.of(
            "baton.store", "etcd",
            "baton.etcd.endpoints", TestEtcd.endpoint(),
            "baton.etcd.root", ROOT,
            "baton.etcd.lease-ttl", "6s",
            "baton.etcd.operation-timeout", "3s");

    @BeforeAll
    static void configure() {
        SETTINGS.forEach(System::setProperty);
    }

    @AfterAll
    static void unconfigure() {
        SETTINGS.keySet().forEach(System::clearProperty);
    }

    @Test
    void locksLiveInEtcd() throws Exception {
        String key = "cdi:" + UUID.randomUUID();
        long token;
        try (Lock lock = locks.acquire(key)) {
            token = lock.fencingToken();
            assertThat(lock.isHeld()).isTrue();
            KeyValue kv = lockKey(ROOT + "/" + key);
            assertThat(kv.getValue().isEmpty())
                    .as("the key's value: the owner token")
                    .isFalse();
            assertThat(kv.getLease()).as("bound to a lease").isNotZero();
            assertThat(kv.getModRevision())
                    .as("the revision of the transaction that wrote it: the token")
                    .isEqualTo(token);
            assertThat(CompletableFuture.supplyAsync(() -> locks.tryAcquire(key))
                            .join())
                    .as("another thread does not get it")
                    .isEmpty();
        }
        try (Lock again = locks.tryAcquire(key).orElseThrow()) {
            assertThat(again.fencingToken()).isGreaterThan(token);
        }
    }

    private static KeyValue lockKey(String etcdKey) throws Exception {
        try (Client client = Client.builder().endpoints(TestEtcd.endpoint()).build()) {
            return client.getKVClient()
                    .get(ByteSequence.from(etcdKey, StandardCharsets.UTF_8))
                    .get(10, TimeUnit.SECONDS)
                    .getKvs()
                    .get(0);
        }
    }
}
