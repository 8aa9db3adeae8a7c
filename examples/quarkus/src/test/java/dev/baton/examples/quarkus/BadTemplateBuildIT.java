package dev.baton.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A bad key template fails the Quarkus build (Baton's build-compatible extension validates at build time),
 * with the message a full CDI container's deployment gives: class, method, and what is wrong. An IT (run by
 * Failsafe, in a JVM of its own) because Quarkus refuses QuarkusUnitTest and QuarkusTest in one run.
 */
class BadTemplateBuildIT {

    @RegisterExtension
    static final QuarkusUnitTest BUILD = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(BadTemplateBean.class))
            .addBuildChainCustomizer(chain -> chain.addBuildStep(
                            context -> context.produce(AdditionalBeanBuildItem.unremovableOf(BadTemplateBean.class)))
                    .produces(AdditionalBeanBuildItem.class)
                    .build())
            .assertException(failure -> assertThat(stackTrace(failure))
                    .contains("@Synchronized on " + BadTemplateBean.class.getName() + ".pay()")
                    .contains("no parameter named 'orderId'"));

    @Test
    void theBuildFails() {
        throw new AssertionError("the build should have failed");
    }

    private static String stackTrace(Throwable failure) {
        java.io.StringWriter out = new java.io.StringWriter();
        failure.printStackTrace(new java.io.PrintWriter(out));
        return out.toString();
    }
}
