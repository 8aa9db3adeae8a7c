package dev.baton.jpa.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The persistence units an application declares, read from every {@code META-INF/persistence.xml}
 * its class loader sees, so a misspelt {@code baton.jpa.persistence-unit} fails the deployment
 * instead of the first lock.
 */
final class PersistenceUnits {

    private static final String DESCRIPTOR = "META-INF/persistence.xml";

    private PersistenceUnits() {}

    /**
     * @param loader the application's class loader
     * @return the unit names found; empty if there is no descriptor (or none could be read)
     */
    static Set<String> declared(ClassLoader loader) {
        Set<String> names = new LinkedHashSet<>();
        try {
            Enumeration<URL> descriptors = loader.getResources(DESCRIPTOR);
            while (descriptors.hasMoreElements()) {
                read(descriptors.nextElement(), names);
            }
        } catch (IOException e) {
            // unreadable class path: nothing to say
        }
        return names;
    }

    private static void read(URL descriptor, Set<String> names) {
        try (InputStream in = descriptor.openStream()) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            NodeList units = factory.newDocumentBuilder().parse(in).getElementsByTagNameNS("*", "persistence-unit");
            for (int i = 0; i < units.getLength(); i++) {
                names.add(((Element) units.item(i)).getAttribute("name"));
            }
        } catch (Exception e) {
            // a descriptor the provider will complain about itself
        }
    }
}
