package dev.baton.impl.testing;

import dev.baton.impl.cdi.BatonExtension;
import io.smallrye.config.inject.ConfigExtension;
import io.smallrye.faulttolerance.FaultToleranceExtension;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.hibernate.validator.cdi.ValidationExtension;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Baton test beside the real SmallRye Fault Tolerance and Hibernate Validator, to check how the
 * interceptors nest; the class's {@link WithConfig} is installed before the container starts.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(TestConfig.class)
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class, FaultToleranceExtension.class, ValidationExtension.class})
@AddBeanClasses(NoopMeter.class)
public @interface FaultToleranceTest {}
