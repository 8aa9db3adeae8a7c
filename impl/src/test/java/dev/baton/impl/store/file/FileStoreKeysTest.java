package dev.baton.impl.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
import dev.baton.spi.Acquisition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Keys that file systems like to confuse stay distinct locks, in files with safe names; shared hashed names are caught. */
class FileStoreKeysTest {

    private Path directory;
    private FileLockStore store;

    @BeforeEach
    void store() throws Exception {
        directory = Files.createDirectories(
                Path.of("target", "file-store-keys", UUID.randomUUID().toString()));
        store = new FileLockStore(directory);
    }

    @Test
    void keysThatFileSystemsConfuseAreDistinctLocksInSafelyNamedFiles() throws Exception {
        String nfc = Normalizer.normalize("caf\u00e9", Normalizer.Form.NFC);
        String nfd = Normalizer.normalize("caf\u00e9", Normalizer.Form.NFD);
        List<String> keys = new ArrayList<>(List.of(
                "k",
                "K",
                "a/b",
                "a\\b",
                "a_b",
                "..",
                ".",
                "/",
                "a:b",
                "CON",
                "con",
                "NUL",
                "a ",
                "a",
                "a.",
                nfc,
                nfd,
                "\u212b",
                "\u00c5",
                "\u0000",
                "\u0000\u0000",
                "x\u0000y",
                "\ud83d\ude00",
                "*?<>|\"",
                "a".repeat(500),
                "a".repeat(499) + "b",
                "b" + "a".repeat(499),
                "A".repeat(500),
                "\u00e9".repeat(500),
                // both sides of the switch to hashed names: 75 UTF-8 bytes are 120 base32 chars, 76 are 122
                "x".repeat(75),
                "x".repeat(76),
                "X".repeat(75),
                "X".repeat(76)));
        Map<String, String> owners = new HashMap<>();
        for (String key : keys) {
            String owner = UUID.randomUUID().toString();
            assertThat(store.acquire(Acquisition.of(key, owner, 60_000)).isAcquired())
                    .as("%s is a lock of its own", printable(key))
                    .isTrue();
            owners.put(key, owner);
        }
        for (String key : keys) {
            assertThat(store.acquire(Acquisition.of(key, UUID.randomUUID().toString(), 60_000))
                            .isAcquired())
                    .as("%s is held", printable(key))
                    .isFalse();
        }

        List<String> names;
        try (Stream<Path> files = Files.list(directory)) {
            names = files.map(p -> p.getFileName().toString())
                    .filter(LockFileNames::isLockFileName)
                    .toList();
        }
        assertThat(names)
                .as("one lock file per key, all in the directory itself")
                .hasSize(keys.size());
        assertThat(names)
                .allSatisfy(name -> assertThat(name)
                        .matches("[kh]-[a-z2-7]+\\.lock")
                        .hasSizeLessThanOrEqualTo(LockFileNames.MAX_NAME_LENGTH));
        assertThat(names.stream()
                        .map(n -> n.toUpperCase(Locale.ROOT))
                        .distinct()
                        .count())
                .as("names that stay distinct on a case-insensitive file system")
                .isEqualTo(keys.size());
        try (Stream<Path> all = Files.list(directory)) {
            assertThat(all.filter(Files::isDirectory).toList())
                    .as("no key made a subdirectory")
                    .isEmpty();
        }
        for (String key : keys) {
            assertThat(store.release(key, owners.get(key)))
                    .as("release of %s", printable(key))
                    .isTrue();
        }
    }

    @Test
    void namesAreInjectiveAndCaseFreeOnManyRandomKeys() {
        Random random = new Random(42);
        String alphabet = "aAbBkK \u00e9e\u0301\u212b\u00c5/\\.:\u0000\ud83d\ude00";
        Map<String, String> keyByName = new HashMap<>();
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            int length = 1 + random.nextInt(i % 10 == 0 ? 200 : 12);
            StringBuilder key = new StringBuilder();
            while (key.length() < length) {
                int at = random.nextInt(alphabet.length());
                char c = alphabet.charAt(at);
                key.append(
                        Character.isHighSurrogate(c)
                                ? alphabet.substring(at, at + 2)
                                : Character.isLowSurrogate(c) ? "x" : String.valueOf(c));
            }
            if (keys.add(key.toString())) {
                String name = LockFileNames.fileName(key.toString());
                String earlier = keyByName.put(name.toLowerCase(Locale.ROOT), key.toString());
                assertThat(earlier)
                        .as("the key that already had the name %s", name)
                        .isNull();
                assertThat(name)
                        .isEqualTo(name.toLowerCase(Locale.ROOT))
                        .hasSizeLessThanOrEqualTo(LockFileNames.MAX_NAME_LENGTH);
            }
        }
        assertThat(keyByName).hasSize(keys.size());
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC}) // hard links, and a holder in another process
    void aLiveLockOfAnotherKeyInTheSameFileIsReportedNotMistakenForTheKey() throws Exception {
        try (ChildJvm holder = ChildJvm.start(
                directory.resolveSibling(directory.getFileName() + ".err"),
                "hold",
                directory.toString(),
                "first",
                "60000")) {
            assertThat(holder.line(60)).startsWith("ACQUIRED ");
            // As if "second" hashed to the name of "first": one file, the record naming "first".
            Files.createLink(
                    directory.resolve(LockFileNames.fileName("second")),
                    directory.resolve(LockFileNames.fileName("first")));

            assertThatThrownBy(() -> store.acquire(
                            Acquisition.of("second", UUID.randomUUID().toString(), 60_000)))
                    .isInstanceOf(LockStoreException.class)
                    .hasMessageContaining("another key");
            assertThat(store.release("second", UUID.randomUUID().toString()))
                    .as("release of a key whose file names another")
                    .isFalse();
        }
    }

    @Test
    void filesOfReleasedKeysAreClosed() {
        int before = SharedFiles.openCount();
        List<String> owners = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            owners.add(UUID.randomUUID().toString());
            assertThat(store.acquire(Acquisition.of("open-" + i, owners.get(i), 60_000))
                            .isAcquired())
                    .isTrue();
        }
        assertThat(SharedFiles.openCount())
                .as("held keys keep their files open")
                .isEqualTo(before + 50);
        for (int i = 0; i < 50; i++) {
            assertThat(store.release("open-" + i, owners.get(i))).isTrue();
        }
        assertThat(SharedFiles.openCount())
                .as("released keys' files are closed")
                .isEqualTo(before);
    }

    @Test
    void filesOfLocksWhoseLeaseRanOutUnreleasedAreClosedByTheSweep() throws Exception {
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String key = "lapsing-" + i;
            assertThat(store.acquire(Acquisition.of(key, UUID.randomUUID().toString(), 300))
                            .isAcquired())
                    .isTrue();
            files.add(directory.toRealPath().resolve(LockFileNames.fileName(key)));
        }
        assertThat(files).as("held keys keep their files open").allMatch(SharedFiles::isOpen);
        Thread.sleep(400);

        FileLockStore.sweep();

        assertThat(files)
                .as("files of locks whose lease ran out, released by nobody")
                .noneMatch(SharedFiles::isOpen);
    }

    private static String printable(String key) {
        return "'"
                + (key.length() > 20 ? key.substring(0, 20) + "...(" + key.length() + " chars)" : key)
                        .replace("\u0000", "\\0")
                + "'";
    }
}
