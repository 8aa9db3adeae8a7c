package dev.baton.impl.testing;

import dev.baton.impl.cdi.BatonExtension;
import io.smallrye.config.inject.ConfigExtension;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Baton test in Weld SE: the Baton and MicroProfile Config extensions, with the class's
 * {@link WithConfig} installed before the container starts.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(TestConfig.class)
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class})
public @interface BatonTest {}
