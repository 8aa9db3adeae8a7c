package dev.baton.docs;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shipped store outside {@code impl} is written on the store SPI like any third-party store: it uses the API,
 * the JDK and what it adapts to (its client, or the Jakarta APIs, providers and drivers of the JPA store), never
 * Baton's runtime; its internal package may use its public package's types, the public package enters the internal
 * one through the facade, and beyond that no two packages and no two classes depend on each other (a class with its
 * nested classes and its subclasses counting as one, so a base class that picks its subclass is no cycle). One rule
 * set for every store, read from the store's jar on the class path.
 */
class StoreArchitectureTest {

    /**
     * @param name the store's root package below {@code dev.baton}
     * @param member a class of its jar
     * @param adapted the packages beyond the API and the JDK it may use
     */
    record Store(String name, Class<?> member, List<String> adapted) {

        String root() {
            return "dev.baton." + name;
        }

        JavaClasses classes() {
            return JarClasses.of("baton-" + name + "-store", member).that(resideInAPackage(root() + ".."));
        }

        String[] allowed() {
            List<String> packages =
                    new ArrayList<>(List.of("dev.baton", "dev.baton.spi", "dev.baton.event", root() + "..", "java.."));
            packages.addAll(adapted);
            return packages.toArray(String[]::new);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Store> stores() {
        return Stream.of(
                new Store(
                        "jpa",
                        dev.baton.jpa.JpaLockStore.class,
                        List.of(
                                // the JDK beyond java..: JDBC, JNDI, the persistence.xml reader
                                "javax.sql..",
                                "javax.naming..",
                                "javax.xml..",
                                "org.w3c.dom..",
                                // Jakarta EE: persistence, transactions, and CDI for the shipped beans
                                "jakarta.persistence..",
                                "jakarta.transaction..",
                                "jakarta.annotation..",
                                "jakarta.enterprise..",
                                "jakarta.inject..",
                                "jakarta.interceptor..",
                                // the providers and drivers it adapts to, each used only where present
                                "org.hibernate..",
                                "org.eclipse.persistence..",
                                "org.postgresql..",
                                "org.mariadb..",
                                "org.h2..")),
                new Store("redis", dev.baton.redis.RedisLockStore.class, List.of("io.lettuce..")),
                new Store("zookeeper", dev.baton.zookeeper.ZooKeeperLockStore.class, List.of("org.apache.zookeeper..")),
                // jetcd, and the gRPC status its failures carry
                new Store("etcd", dev.baton.etcd.EtcdLockStore.class, List.of("io.etcd.jetcd..", "io.grpc..")),
                new Store("mongodb", dev.baton.mongodb.MongoLockStore.class, List.of("com.mongodb..", "org.bson..")));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void theStoreNeverUsesBatonsRuntime(Store store) {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.baton.impl..")
                .because("a store works with any Baton runtime through the SPI")
                .check(store.classes());
    }

    @ParameterizedTest
    @MethodSource("stores")
    void theStoreUsesOnlyTheApiTheJdkAndWhatItAdaptsTo(Store store) {
        classes()
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(store.allowed())
                .check(store.classes());
    }

    @ParameterizedTest
    @MethodSource("stores")
    void noPackagesDependOnEachOther(Store store) {
        slices().matching("(**)") // each package its own slice: the store's classes are all there are
                .should()
                .beFreeOfCycles()
                .ignoreDependency(resideInAPackage(store.root() + ".internal.."), resideInAPackage(store.root()))
                .check(store.classes());
    }

    @ParameterizedTest
    @MethodSource("stores")
    void noClassesDependOnEachOther(Store store) {
        slices().assignedFrom(classHierarchies(store.root()))
                .should()
                .beFreeOfCycles()
                .check(store.classes());
    }

    /** Each class hierarchy of the store its own slice: a top-level class with its nested classes and subclasses. */
    private static SliceAssignment classHierarchies(String root) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                if (!inStore(javaClass)) {
                    return SliceIdentifier.ignore();
                }
                JavaClass top = topLevel(javaClass);
                while (top.getRawSuperclass().filter(this::inStore).isPresent()) {
                    top = topLevel(top.getRawSuperclass().get());
                }
                return SliceIdentifier.of(top.getName());
            }

            private boolean inStore(JavaClass javaClass) {
                return javaClass.getPackageName().startsWith(root);
            }

            @Override
            public String getDescription() {
                return "the class hierarchies of " + root;
            }
        };
    }

    private static JavaClass topLevel(JavaClass javaClass) {
        JavaClass top = javaClass;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        return top;
    }
}
