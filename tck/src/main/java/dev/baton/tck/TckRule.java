package dev.baton.tck;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The rule a test of the TCK checks: a stable id and the anchor of the assertion of Baton's specification it
 * checks. Every test of the store contract suite and of the runtime suite carries exactly one, and the rules are
 * listed in {@code dev/baton/tck/rules.txt} of this artifact.
 *
 * <p>The id is {@code S-<n>-<nn>} for a rule of the store contract and {@code R-<n>-<nn>} for a runtime scenario
 * ({@code S-3.1-01}, {@code R-6-01}): its digits number the rules and name no section. An id never changes once
 * published; a rule that is removed leaves its id unused.
 *
 * <p>The assertion is named by its anchor in the specification (the {@code baton-spec} module: {@code
 * baton-spec.html#spec-store-acquire-free-key}), {@code spec-<chapter>-<subject>}; several rules may check one
 * assertion.
 *
 * <p>A vendor excludes a rule by its id, listing it in the file named by the system property (or JUnit
 * configuration parameter) {@value TckExclusions#EXCLUDES}: the annotation brings {@link TckExclusions},
 * which reports the rule as skipped, naming the file.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@ExtendWith(TckExclusions.class)
public @interface TckRule {

    /**
     * @return the rule's stable id, e.g. {@code S-3.1-01}
     */
    String id();

    /**
     * @return the anchor of the specification's assertion the rule checks, e.g. {@code spec-store-acquire-free-key}
     */
    String spec();
}
