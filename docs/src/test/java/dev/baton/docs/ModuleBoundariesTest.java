package dev.baton.docs;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The boundaries between the published jars, on their classes: no jar, and no sample of the documents, uses
 * another jar's {@code ..internal..} packages; and each jar's public packages (those not under
 * {@code internal}) are the ones listed here and in {@code docs/internals.md}, so a new public package fails the
 * build until it is listed in both.
 */
class ModuleBoundariesTest {

    /** Each published jar with classes: a class that is in it, and its public packages. */
    private static final Map<String, Jar> JARS = jars(
            new Jar("baton-api", dev.baton.Locks.class, "dev.baton", "dev.baton.event", "dev.baton.spi"),
            new Jar(
                    "baton-impl",
                    dev.baton.impl.cdi.BatonExtension.class,
                    "dev.baton.impl.cdi",
                    "dev.baton.impl.config",
                    "dev.baton.impl.engine",
                    "dev.baton.impl.health",
                    "dev.baton.impl.jaxrs",
                    "dev.baton.impl.key",
                    "dev.baton.impl.leadership",
                    "dev.baton.impl.logging",
                    "dev.baton.impl.metrics",
                    "dev.baton.impl.plan",
                    "dev.baton.impl.runtime",
                    "dev.baton.impl.schedule",
                    "dev.baton.impl.store.file",
                    "dev.baton.impl.store.memory",
                    "dev.baton.impl.time",
                    "dev.baton.impl.transaction"),
            new Jar("baton-jpa-store", dev.baton.jpa.JpaLockStore.class, "dev.baton.jpa"),
            new Jar("baton-redis-store", dev.baton.redis.RedisLockStore.class, "dev.baton.redis"),
            new Jar("baton-zookeeper-store", dev.baton.zookeeper.ZooKeeperLockStore.class, "dev.baton.zookeeper"),
            new Jar("baton-etcd-store", dev.baton.etcd.EtcdLockStore.class, "dev.baton.etcd"),
            new Jar("baton-mongodb-store", dev.baton.mongodb.MongoLockStore.class, "dev.baton.mongodb"),
            new Jar(
                    "baton-tck",
                    dev.baton.tck.LockStoreContract.class,
                    "dev.baton.tck",
                    "dev.baton.tck.faults",
                    "dev.baton.tck.properties",
                    "dev.baton.tck.runtime",
                    "dev.baton.tck.runtime.applications",
                    "dev.baton.tck.runtime.conflict",
                    "dev.baton.tck.runtime.definition",
                    "dev.baton.tck.runtime.ear",
                    "dev.baton.tck.runtime.exclusion",
                    "dev.baton.tck.runtime.health",
                    "dev.baton.tck.runtime.launch",
                    "dev.baton.tck.runtime.leadership",
                    "dev.baton.tck.runtime.loss",
                    "dev.baton.tck.runtime.metrics",
                    "dev.baton.tck.runtime.schedule",
                    "dev.baton.tck.runtime.security",
                    "dev.baton.tck.runtime.shared",
                    "dev.baton.tck.runtime.smoke",
                    "dev.baton.tck.runtime.support",
                    "dev.baton.tck.runtime.transactions",
                    "dev.baton.tck.runtime.undeploy"));

    /** A row of the table in docs/internals.md: {@code | `baton-api` | `dev.baton`, `dev.baton.event` |}. */
    private static final Pattern ROW = Pattern.compile("^\\| `(baton-[a-z-]+)` \\|([^|]*)\\|");

    private static final Pattern NAME = Pattern.compile("`([a-z][a-z0-9.]*)`");

    @Test
    void nothingOutsideAJarUsesItsInternalPackages() {
        for (Jar owner : JARS.values()) {
            Set<String> internal = owner.packages().stream()
                    .filter(ModuleBoundariesTest::internal)
                    .collect(Collectors.toCollection(TreeSet::new));
            if (internal.isEmpty()) {
                continue;
            }
            List<JavaClasses> others = new ArrayList<>();
            JARS.values().stream().filter(jar -> jar != owner).forEach(jar -> others.add(jar.classes()));
            others.add(samples());
            for (JavaClasses classes : others) {
                noClasses()
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage(internal.toArray(String[]::new))
                        .because(owner.artifact() + "'s internal packages are its own: they change without notice")
                        .check(classes);
            }
        }
    }

    @Test
    void eachJarsPublicPackagesAreTheListedOnes() {
        for (Jar jar : JARS.values()) {
            Set<String> found = jar.packages().stream()
                    .filter(name -> !internal(name))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(found)
                    .as("the public packages of %s (a new one is listed here and in docs/internals.md)", jar.artifact())
                    .isEqualTo(jar.publicPackages());
        }
    }

    @Test
    void internalsListsEachJarsPublicPackages() throws IOException {
        Map<String, Set<String>> listed = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Documents.root().resolve("docs/internals.md"))) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                Set<String> packages = new TreeSet<>();
                Matcher name = NAME.matcher(row.group(2));
                while (name.find()) {
                    packages.add(name.group(1));
                }
                listed.put(row.group(1), packages);
            }
        }
        Map<String, Set<String>> expected = new LinkedHashMap<>();
        JARS.values().forEach(jar -> expected.put(jar.artifact(), jar.publicPackages()));
        assertThat(listed)
                .as("docs/internals.md, the table of each jar's public packages")
                .isEqualTo(expected);
    }

    private static boolean internal(String packageName) {
        return packageName.endsWith(".internal") || packageName.contains(".internal.");
    }

    /** The documents' samples: code written as an application or a store author writes it. */
    private static JavaClasses samples() {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("dev.baton.docs.samples");
    }

    private static Map<String, Jar> jars(Jar... jars) {
        Map<String, Jar> byArtifact = new LinkedHashMap<>();
        for (Jar jar : jars) {
            byArtifact.put(jar.artifact(), jar);
        }
        return byArtifact;
    }

    /**
     * @param artifact the jar's artifact id
     * @param member a class of it, to find the jar (or the module's classes folder) on the class path
     * @param publicPackages its packages not under {@code internal}
     */
    private record Jar(String artifact, Class<?> member, Set<String> publicPackages) {

        Jar(String artifact, Class<?> member, String... publicPackages) {
            this(artifact, member, new TreeSet<>(Set.of(publicPackages)));
        }

        /** Its classes, from the jar (or the module's classes folder) the class path has it in; imported once. */
        JavaClasses classes() {
            return JarClasses.of(artifact, member);
        }

        Set<String> packages() {
            return classes().stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
