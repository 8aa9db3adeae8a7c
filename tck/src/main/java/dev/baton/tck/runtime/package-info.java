/**
 * The runtime suite of the Baton TCK: Arquillian + JUnit 5 scenarios a server vendor runs against
 * its server with its own Arquillian adapter.
 *
 * <p>Every scenario is a black-box test: it builds its own {@code @Deployment(testable = false)} WAR
 * with {@link dev.baton.tck.runtime.RuntimeTck#war(String)}, ships its configuration as
 * {@code META-INF/microprofile-config.properties} inside it and talks to it over HTTP from the test
 * JVM. The application itself counts what happened (for example how many callers were inside a
 * method at once); the tests never infer exclusion from timing.
 *
 * <p>A vendor supplies:
 * <ul>
 * <li>{@code dev.baton:baton-tck} and {@code org.jboss.arquillian.junit5:arquillian-junit5-container}
 * as test dependencies, its Arquillian adapter and an {@code arquillian.xml};</li>
 * <li>Surefire or Failsafe with {@code <dependenciesToScan>dev.baton:baton-tck</dependenciesToScan>}
 * and {@code <groups>}/{@code <excludedGroups>} for the {@linkplain dev.baton.tck.runtime.RuntimeTck
 * tags} its runtime supports;</li>
 * <li>the system property {@value dev.baton.tck.runtime.RuntimeTck#LIBRARIES} naming the Baton jars
 * to put into every deployment's {@code WEB-INF/lib} (left empty when the runtime ships Baton
 * itself).</li>
 * </ul>
 */
package dev.baton.tck.runtime;
