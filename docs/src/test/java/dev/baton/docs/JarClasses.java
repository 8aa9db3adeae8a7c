package dev.baton.docs;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;

/** The classes of a published jar, as ArchUnit reads them: imported once per test JVM. */
final class JarClasses {

    private static final Map<String, JavaClasses> IMPORTED = new ConcurrentHashMap<>();

    private JarClasses() {}

    /**
     * @param artifact the jar's artifact id
     * @param member a class of it, to find the jar (or the module's classes folder) on the class path
     * @return its classes
     */
    static JavaClasses of(String artifact, Class<?> member) {
        return IMPORTED.computeIfAbsent(artifact, a -> {
            try {
                Path location = Path.of(member.getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI());
                if (Files.isDirectory(location)) {
                    return new ClassFileImporter().importPath(location);
                }
                try (JarFile jar = new JarFile(location.toFile())) {
                    return new ClassFileImporter().importJar(jar);
                }
            } catch (URISyntaxException | IOException e) {
                throw new IllegalStateException("Cannot read the classes of " + artifact, e);
            }
        });
    }
}
