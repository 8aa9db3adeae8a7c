package dev.baton.tck.runtime;

import dev.baton.tck.TimeFactor;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Building blocks shared by the runtime scenarios: the deployment archive, its configuration, the
 * tags a vendor selects scenarios with, and the time factor for slow machines.
 */
public final class RuntimeTck {

    /**
     * System property: the Baton jars (files, or directories whose {@code *.jar} files are taken),
     * separated by the platform path separator, that every deployment gets in {@code WEB-INF/lib}.
     */
    public static final String LIBRARIES = "baton.tck.libraries";

    /** System property: a factor every wait bound of the suite is multiplied by (default 1); see {@link TimeFactor}. */
    public static final String TIME_FACTOR = TimeFactor.PROPERTY;

    /**
     * System property: the JPA store's jar ({@code baton-jpa-store}; files or directories, as for
     * {@value #LIBRARIES}) that the scenarios on the JPA store ({@value #TAG_JPA_DATA_SOURCE}) add to their
     * deployments, on top of {@value #LIBRARIES}.
     */
    public static final String JPA_STORE_LIBRARIES = "baton.tck.jpaStoreLibraries";

    /** The platform's default data source, the one the {@value #TAG_JPA_DATA_SOURCE} scenarios hand the JPA store. */
    public static final String DEFAULT_DATA_SOURCE = "java:comp/DefaultDataSource";

    /**
     * System property: the JNDI name of the data source the {@value #TAG_JPA_DATA_SOURCE} scenarios hand the JPA
     * store (default {@value #DEFAULT_DATA_SOURCE}), for a server whose applications see no default data source.
     */
    public static final String DATA_SOURCE = "baton.tck.dataSource";

    /**
     * System property: where the server answers MicroProfile Health's readiness, for the {@value #TAG_HEALTH}
     * scenarios. A reference resolved against the deployment's URL: {@value #DEFAULT_HEALTH_URL} (the default) is
     * the server's root, {@code health/ready} the application's own (servers that serve health per application), and
     * an absolute URL another port (WildFly's management interface, {@code http://127.0.0.1:9990/health/ready}).
     */
    public static final String HEALTH_URL = "baton.tck.healthUrl";

    /** The default of {@value #HEALTH_URL}. */
    public static final String DEFAULT_HEALTH_URL = "/health/ready";

    /**
     * System property: where the server serves its metrics as Prometheus text, for the {@value #TAG_METRICS}
     * scenarios; resolved like {@value #HEALTH_URL} (default {@value #DEFAULT_METRICS_URL}).
     */
    public static final String METRICS_URL = "baton.tck.metricsUrl";

    /** The default of {@value #METRICS_URL}. */
    public static final String DEFAULT_METRICS_URL = "/metrics";

    /**
     * System property: what the server puts before an application's metric names in its Prometheus text (default
     * none: MicroProfile Metrics 5 and OpenTelemetry's exporter; MicroProfile Metrics 4 servers write {@code
     * application_}).
     */
    public static final String METRICS_PREFIX = "baton.tck.metricsPrefix";

    /**
     * System property: a directory both the tests and the server can write, at the same path, for
     * scenarios that leave a file the test reads (default: {@code target} under the working directory
     * when there is one, as in a Maven build, else {@code java.io.tmpdir}).
     */
    public static final String WORK_DIRECTORY = "baton.tck.workDirectory";

    /** Tag of scenarios that need Jakarta Enterprise Beans (at least EJB Lite stateless beans). */
    public static final String TAG_EJB = "ejb";

    /** Tag of scenarios that need JTA transactions, JPA and a data source. */
    public static final String TAG_TRANSACTIONS = "transactions";

    /**
     * Tag of scenarios that need Jakarta EE 11 APIs (Jakarta Concurrency 3.1 schedules): a Jakarta EE 10
     * server excludes it.
     */
    public static final String TAG_EE11 = "ee11";

    /** Tag of scenarios that need MicroProfile Health ({@code /health/ready} of the server). */
    public static final String TAG_HEALTH = "health";

    /**
     * Tag of scenarios that scrape the server's {@code /metrics} (Prometheus text): MicroProfile Metrics 5, or
     * MicroProfile Telemetry with a Prometheus exporter there.
     */
    public static final String TAG_METRICS = "metrics";

    /**
     * Tag of scenarios deployed as an EAR (an EJB module and a web module, the Baton jars in {@code lib/}): a
     * server that deploys only WARs (Payara Micro, Helidon MP) excludes it.
     */
    public static final String TAG_EAR = "ear";

    /**
     * Tag of scenarios on the JPA store configured by one line, {@code baton.jpa.data-source=}{@value
     * #DEFAULT_DATA_SOURCE} (with {@code baton.store=jpa} and {@code baton.jpa.schema-action=create}): they need
     * what {@value #TAG_TRANSACTIONS} needs, a default data source on a database the JPA store supports (H2,
     * PostgreSQL, MariaDB), and the jar of {@value #JPA_STORE_LIBRARIES}. They carry {@value #TAG_TRANSACTIONS} too.
     */
    public static final String TAG_JPA_DATA_SOURCE = "jpa-data-source";

    /**
     * Tag of scenarios that need Enterprise Beans security: {@code @RolesAllowed} enforced on a session bean
     * and {@code @RunAs} honoured (a server whose EJB security needs a feature switched on, such as Open
     * Liberty's {@code appSecurity}, switches it on or excludes the tag). They carry {@value #TAG_EJB} too.
     */
    public static final String TAG_EJB_SECURITY = "ejb-security";

    /**
     * Tag of scenarios that deploy two WARs at once into one server, each deployed and undeployed by the test
     * (Arquillian's {@code Deployer}, {@code managed = false}), as two instances of one application: an adapter that
     * runs one application per server process (Payara Micro's) excludes it.
     */
    public static final String TAG_TWO_DEPLOYMENTS = "two-deployments";

    private RuntimeTck() {}

    /**
     * A WAR named {@code name.war} with a {@code beans.xml} (annotated discovery) and the Baton
     * libraries named by {@value #LIBRARIES}.
     */
    public static WebArchive war(String name) {
        WebArchive war = ShrinkWrap.create(WebArchive.class, name + ".war")
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
        for (File library : libraries()) {
            war.addAsLibrary(library);
        }
        return war;
    }

    /**
     * {@link #war(String)} plus the scenario support classes ({@code dev.baton.tck.runtime.support}):
     * JAX-RS under {@code /api}, {@code GET /api/probe?name=...} and the gate.
     */
    public static WebArchive scenario(String name) {
        return war(name).addPackage(dev.baton.tck.runtime.support.TckApplication.class.getPackage());
    }

    /**
     * Adds {@code META-INF/microprofile-config.properties} with the given key/value pairs.
     */
    public static WebArchive withConfig(WebArchive war, String... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must come in pairs");
        }
        Properties properties = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        StringWriter text = new StringWriter();
        try {
            properties.store(text, "Baton runtime TCK");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return war.addAsResource(new StringAsset(text.toString()), "META-INF/microprofile-config.properties");
    }

    /**
     * The JPA store on the platform's default data source: adds the jar of {@value #JPA_STORE_LIBRARIES} and
     * {@code META-INF/microprofile-config.properties} with {@code baton.store=jpa}, {@code
     * baton.jpa.data-source=}{@link #dataSource()}, {@code baton.jpa.schema-action=create} and the given
     * further key/value pairs.
     */
    public static WebArchive withJpaStore(WebArchive war, String... moreKeysAndValues) {
        List<File> jars = libraries(JPA_STORE_LIBRARIES);
        if (jars.isEmpty()) {
            throw new IllegalStateException("The scenarios tagged " + TAG_JPA_DATA_SOURCE + " need the JPA store's jar:"
                    + " set the system property " + JPA_STORE_LIBRARIES + " (or exclude the tag)");
        }
        for (File jar : jars) {
            war.addAsLibrary(jar);
        }
        String[] config = new String[6 + moreKeysAndValues.length];
        config[0] = "baton.store";
        config[1] = "jpa";
        config[2] = "baton.jpa.data-source";
        config[3] = dataSource();
        config[4] = "baton.jpa.schema-action";
        config[5] = "create";
        System.arraycopy(moreKeysAndValues, 0, config, 6, moreKeysAndValues.length);
        return withConfig(war, config);
    }

    /** @return the data source of {@value #DATA_SOURCE}, by default {@value #DEFAULT_DATA_SOURCE} */
    public static String dataSource() {
        return setting(DATA_SOURCE, DEFAULT_DATA_SOURCE);
    }

    /**
     * @param deployment the deployment's URL
     * @return where the server answers readiness ({@value #HEALTH_URL})
     */
    public static URI healthUrl(URL deployment) {
        return resolve(deployment, HEALTH_URL, DEFAULT_HEALTH_URL);
    }

    /**
     * @param deployment the deployment's URL
     * @return where the server serves its Prometheus text ({@value #METRICS_URL})
     */
    public static URI metricsUrl(URL deployment) {
        return resolve(deployment, METRICS_URL, DEFAULT_METRICS_URL);
    }

    /** @return what the server puts before an application's metric names ({@value #METRICS_PREFIX}) */
    public static String metricsPrefix() {
        return System.getProperty(METRICS_PREFIX, "").strip();
    }

    private static URI resolve(URL deployment, String property, String fallback) {
        String reference = setting(property, fallback);
        // the deployment's URL as a directory (adapters give it with or without the slash): health/ready under it
        String base = deployment.toExternalForm();
        try {
            return new URI(base.endsWith("/") ? base : base + "/").resolve(reference);
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "The system property " + property + "='" + reference + "' is not a URL reference: "
                            + e.getMessage(),
                    e);
        }
    }

    private static String setting(String property, String fallback) {
        String value = System.getProperty(property, "").strip();
        return value.isEmpty() ? fallback : value;
    }

    /** The time factor of {@value #TIME_FACTOR} ({@link TimeFactor#get()}). */
    public static double timeFactor() {
        return TimeFactor.get();
    }

    /** {@code base} scaled by the {@linkplain #timeFactor() time factor}. */
    public static Duration scaled(Duration base) {
        return TimeFactor.scale(base);
    }

    /**
     * The absolute, existing directory of {@value #WORK_DIRECTORY}. The server reads paths under it
     * from the deployment's configuration: it must run on the same machine (or share the directory at
     * the same path).
     */
    public static Path workDirectory() {
        String configured = System.getProperty(WORK_DIRECTORY, "").trim();
        Path directory;
        if (!configured.isEmpty()) {
            directory = Path.of(configured);
        } else if (Files.isDirectory(Path.of("target"))) {
            directory = Path.of("target");
        } else {
            directory = Path.of(System.getProperty("java.io.tmpdir"));
        }
        try {
            return Files.createDirectories(directory.toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the " + WORK_DIRECTORY + " directory " + directory, e);
        }
    }

    /** The Baton jars named by {@value #LIBRARIES}, in the order given (a directory's jars sorted by name). */
    public static List<File> libraries() {
        return libraries(LIBRARIES);
    }

    private static List<File> libraries(String property) {
        String value = System.getProperty(property, "").trim();
        List<File> jars = new ArrayList<>();
        if (value.isEmpty()) {
            return jars;
        }
        for (String entry : value.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path path = Path.of(entry.trim());
            if (Files.isDirectory(path)) {
                try (Stream<Path> files = Files.list(path)) {
                    files.filter(f -> f.getFileName().toString().endsWith(".jar"))
                            .sorted()
                            .forEach(f -> jars.add(f.toFile()));
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot list " + property + " directory " + path, e);
                }
            } else if (Files.isRegularFile(path)) {
                jars.add(path.toFile());
            } else {
                throw new IllegalStateException(property + " names " + path + ", which does not exist");
            }
        }
        return jars;
    }
}
