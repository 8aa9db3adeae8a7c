package io.helidon.microprofile.scheduling;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The members Baton reads of Helidon MP 4's {@code @Scheduled}, with its name, for impl's tests on JDK 17 (Helidon's
 * own classes need JDK 21). The real annotation is exercised by the Helidon pair test (examples/servers/helidon).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Scheduled {
    String value();

    boolean concurrentExecution() default true;
}
