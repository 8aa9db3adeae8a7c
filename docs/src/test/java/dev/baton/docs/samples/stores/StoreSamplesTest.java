package dev.baton.docs.samples.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.config.KnownKeys;
import dev.baton.impl.runtime.StoreRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The configuration samples of the guides name only keys Baton and its stores read. */
class StoreSamplesTest {

    @Test
    void everyKeyOfTheSamplesIsOneBatonReads() throws IOException {
        Path samples = Path.of("src/test/resources/samples");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(samples)) {
            files = walk.filter(f -> f.toString().endsWith(".properties"))
                    .sorted()
                    .toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(7);
        List<String> problems = new ArrayList<>();
        for (Path file : files) {
            Properties properties = new Properties();
            try (InputStream in = Files.newInputStream(file)) {
                properties.load(in);
            }
            List<String> managers = Arrays.stream(
                            properties.getProperty("baton.managers", "").split(","))
                    .map(String::strip)
                    .filter(name -> !name.isEmpty())
                    .toList();
            KnownKeys known = KnownKeys.of(managers, StoreRegistry.factories());
            known.unknown(properties.stringPropertyNames()).forEach(unknown -> problems.add(file + ": " + unknown));
        }
        assertThat(StoreRegistry.factories())
                .containsKeys("memory", "file", "jpa", "redis", "zookeeper", "etcd", "mongodb");
        assertThat(problems).isEmpty();
    }
}
