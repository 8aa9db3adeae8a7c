package dev.baton.tck.runtime.ear;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Concurrently;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An EAR with the Baton jars in {@code lib/}, {@code @Synchronized} on an EJB in the EJB module and on a JAX-RS
 * method in the web module, both on the key {@code ear:one} and the default (memory) store. Concurrent requests
 * through both modules never overlap, and their fencing tokens form one increasing sequence: one lock runtime
 * serves the whole application. Two runtimes (one per module) would each have a memory store of their own, let
 * an EJB call and a web call hold the key together, and hand out the same tokens twice.
 */
@Tag(RuntimeTck.TAG_EAR)
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class EarDeploymentTest {

    static final int CALLERS = 8;

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        JavaArchive shared = ShrinkWrap.create(JavaArchive.class, "baton-tck-ear-shared.jar")
                .addClasses(EarWork.class, EarSections.class);
        JavaArchive ejbModule = ShrinkWrap.create(JavaArchive.class, "baton-tck-ear-ejb.jar")
                .addClass(EarEjbWorker.class)
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml");
        WebArchive webModule = ShrinkWrap.create(WebArchive.class, "baton-tck-ear-web.war")
                .addClasses(EarResource.class, EarApplication.class)
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
        EnterpriseArchive ear = ShrinkWrap.create(EnterpriseArchive.class, "baton-tck-ear.ear")
                .setApplicationXML(new StringAsset(APPLICATION_XML))
                .addAsModule(ejbModule)
                .addAsModule(webModule)
                .addAsLibrary(shared);
        RuntimeTck.libraries().forEach(ear::addAsLibrary);
        return ear;
    }

    private static final String APPLICATION_XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <application xmlns="https://jakarta.ee/xml/ns/jakartaee"
                         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                         xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/application_10.xsd"
                         version="10">
              <display-name>baton-tck-ear</display-name>
              <module><ejb>baton-tck-ear-ejb.jar</ejb></module>
              <module>
                <web>
                  <web-uri>baton-tck-ear-web.war</web-uri>
                  <context-root>baton-tck-ear-web</context-root>
                </web>
              </module>
              <library-directory>lib</library-directory>
            </application>
            """;

    @Test
    @TckRule(id = "R-8.2-01", spec = "spec-runtime-ear-one-runtime")
    void bothModulesShareOneLockRuntime() {
        AtomicInteger next = new AtomicInteger();
        List<Http.Response> responses = Concurrently.send(CALLERS, () -> {
            String module = next.getAndIncrement() % 2 == 0 ? "ejb" : "web";
            return Http.post(base, "api/ear/" + module + "?" + Http.query("key", "one"));
        });
        assertThat(responses)
                .allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(200));

        String report = Http.getBody(base, "api/ear/report");
        assertThat(report)
                .as("no two callers inside at once, across both modules")
                .startsWith("most=1;");
        List<String> entries = Arrays.asList(report.substring(report.indexOf("entries=") + "entries=".length())
                .split(","));
        assertThat(entries).hasSize(CALLERS);
        assertThat(entries)
                .as("both modules served")
                .anyMatch(e -> e.startsWith("ejb#"))
                .anyMatch(e -> e.startsWith("web#"));
        List<Long> tokens = new ArrayList<>();
        entries.forEach(e -> tokens.add(Long.parseLong(e.substring(e.indexOf('#') + 1))));
        assertThat(tokens)
                .as("one token sequence for the key, in the order the callers entered")
                .isSorted()
                .doesNotHaveDuplicates();
    }
}
