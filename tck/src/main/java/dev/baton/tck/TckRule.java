package dev.baton.tck;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The rule a test of the TCK checks: a stable id and the section of Baton's specification it comes from.
 * Every test of the store contract suite and of the runtime suite carries exactly one, and the ids are
 * listed in {@code dev/baton/tck/rules.txt} of this artifact.
 *
 * <p>The id is {@code S-<section>-<nn>} for a rule of the store contract and {@code R-<section>-<nn>} for a
 * runtime scenario, where {@code <section>} is the specification's section ({@code 3}) or the bullet of
 * it ({@code 3.1}: the first bullet of section 3). An id never changes once published; a rule that is
 * removed leaves its id unused.
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
     * @return the section of the specification the rule checks, e.g. {@code §3.1}: the id's section
     */
    String spec();
}
