package dev.platform.karpenter.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks an integration test (terraform + moto). Such classes are named {@code *IT} so failsafe runs them, and carry the
 * {@code integration} tag so surefire's {@code excludedGroups} keeps them out of the fast unit-test run.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("integration")
public @interface IntegrationTest {}
