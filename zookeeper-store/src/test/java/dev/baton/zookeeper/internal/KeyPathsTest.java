package dev.baton.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.common.PathUtils;
import org.junit.jupiter.api.Test;

/** Keys as node names: one name per key, every name a valid ZooKeeper node name, and back. */
class KeyPathsTest {

    private static final List<String> KEYS = List.of(
            "order:42",
            "a/b",
            ".",
            "..",
            "zookeeper",
            "k",
            "K",
            "a ",
            "100%",
            "%41",
            "nul\u0000inside",
            "\u0001\u001f\u007f\u0085",
            "caf\u00e9",
            "cafe\u0301",
            "\ud83d\udd12 lock",
            "\ufff0\uffff\ud7ff\ue000\uf8ff",
            "x".repeat(500),
            "\ud83d\udd12".repeat(250));

    private final KeyPaths paths = new KeyPaths("/baton/test");

    @Test
    void everyKeyHasAValidNodeOfItsOwnAndComesBackFromIt() {
        Set<String> names = new HashSet<>();
        for (String key : KEYS) {
            String lockNode = paths.lockNode(key);
            PathUtils.validatePath(lockNode); // throws for a path ZooKeeper refuses
            assertThat(names.add(KeyPaths.name(key)))
                    .as("a name of its own for %s", key)
                    .isTrue();
            assertThat(paths.keyOfLockNode(lockNode))
                    .as("the key of %s", lockNode)
                    .isEqualTo(key);
            assertThat(lockNode).startsWith(paths.keyNode(key) + "/");
        }
    }

    @Test
    void readableKeysStayReadable() {
        assertThat(KeyPaths.name("order:42")).isEqualTo("order:42");
        assertThat(KeyPaths.name("a/b.c")).isEqualTo("a%2Fb%2Ec");
        assertThat(KeyPaths.name("nul\u0000")).isEqualTo("nul%00");
    }

    @Test
    void pathsThatAreNoLockNodeOfThisRootHaveNoKey() {
        assertThat(paths.keyOfLockNode("/baton/test/order:42")).as("a key node").isNull();
        assertThat(paths.keyOfLockNode("/baton/test/order:42/other")).isNull();
        assertThat(paths.keyOfLockNode("/baton/other/order:42/lock"))
                .as("another root")
                .isNull();
        assertThat(paths.keyOfLockNode("/baton/test/a/b/lock"))
                .as("a deeper node")
                .isNull();
        assertThat(paths.keyOfLockNode("/baton/test//lock")).as("an empty name").isNull();
        assertThat(paths.keyOfLockNode("/baton/test/a%2/lock"))
                .as("a bad escape")
                .isNull();
        assertThat(paths.keyOfLockNode("/baton/test/%41/lock"))
                .as("an escape the store never writes")
                .isNull();
        assertThat(paths.keyOfLockNode("/baton/test/%FF/lock")).as("not UTF-8").isNull();
        assertThat(paths.keyOfLockNode("/baton/testx/a/lock")).isNull();
    }

    @Test
    void aRootMustBeAnAbsolutePathOfItsOwn() {
        assertThat(KeyPaths.requireValidRoot("/baton")).isEqualTo("/baton");
        assertThat(KeyPaths.requireValidRoot("/apps/orders/locks")).isEqualTo("/apps/orders/locks");
        assertThatThrownBy(() -> KeyPaths.requireValidRoot("baton"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'baton' is not a ZooKeeper path");
        assertThatThrownBy(() -> KeyPaths.requireValidRoot("/baton/"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'/baton/'");
        assertThatThrownBy(() -> KeyPaths.requireValidRoot("/"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be / itself");
        assertThatThrownBy(() -> KeyPaths.requireValidRoot(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> KeyPaths.requireValidRoot("/zookeeper/locks"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("below /zookeeper");
    }
}
