package dev.baton.tck.runtime.definition;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * Checks how a runtime reported a deployment it refused. Adapters differ: WildFly's, Payara Micro's and this
 * repository's Helidon container throw Arquillian's {@code DeploymentException} (with the server's message,
 * or only a pointer to the server's output), Open Liberty's throws CDI's {@code DefinitionException}. Those
 * two types are accepted, nothing else (a timeout, an I/O error, an assertion of another extension). When
 * the failure carries the server's account of the error (it names {@code LockConfigurationException} or the
 * bad bean), that account must be Baton's: the class, method and placeholder at fault.
 */
final class DeploymentFailure {

    /** The exception types a refused deployment may arrive as. */
    static final List<Class<? extends Throwable>> ACCEPTED = List.of(
            org.jboss.arquillian.container.spi.client.container.DeploymentException.class,
            jakarta.enterprise.inject.spi.DefinitionException.class);

    private DeploymentFailure() {}

    /**
     * @param failure what deploying threw, or null if it deployed
     * @param beanClass the bean whose definition error must have failed it
     * @param method the bean's method at fault
     * @param placeholder the placeholder at fault, e.g. {@code {customer}}
     * @return whether the failure carried the server's account of the error (false: the adapter kept it in
     *     the server's output)
     * @throws AssertionError if it deployed, or failed as another type or for another reason
     */
    static boolean check(Throwable failure, Class<?> beanClass, String method, String placeholder) {
        if (failure == null) {
            throw new AssertionError("The deployment with " + beanClass.getName()
                    + " was accepted: a @Synchronized template naming no parameter must fail the deployment");
        }
        if (ACCEPTED.stream().noneMatch(type -> type.isInstance(failure))) {
            throw new AssertionError(
                    "The deployment failed, but as " + failure.getClass().getName() + ", not as one of " + ACCEPTED
                            + " (a deployment error, as Arquillian's adapters report it):\n" + text(failure),
                    failure);
        }
        String text = text(failure);
        boolean detailed = text.contains("LockConfigurationException") || text.contains(beanClass.getName());
        if (detailed) {
            String at = beanClass.getName() + "." + method + "()";
            if (!text.contains(at) || !text.contains(placeholder)) {
                throw new AssertionError(
                        "The deployment failed, but the server's message does not name " + at + " and " + placeholder
                                + " (Baton's LockConfigurationException): another error?\n" + text,
                        failure);
            }
        }
        return detailed;
    }

    /** The failure with its causes and suppressed exceptions, as printed. */
    static String text(Throwable failure) {
        StringWriter out = new StringWriter();
        failure.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
