package dev.platform.karpenter.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class that reads upstream's files from the {@link Mirror}: without a mirror it is skipped as a whole, with
 * one line naming the variable and the command that builds one; under CI it runs and fails before its first test.
 * Its static fields must not read the mirror when there is none (JUnit reads extension fields before it evaluates
 * this condition).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(NeedsUpstreamMirror.Condition.class)
public @interface NeedsUpstreamMirror {
    /** Skips, or under CI fails, the class without a mirror. */
    final class Condition implements ExecutionCondition, BeforeAllCallback {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            if (Mirror.available() || Mirror.required()) {
                return ConditionEvaluationResult.enabled("an upstream mirror is set, or required");
            }
            // One line for the class or method that carries the annotation (not again for what it holds).
            if (context.getElement()
                    .map(element -> element.isAnnotationPresent(NeedsUpstreamMirror.class))
                    .orElse(false)) {
                String what = context.getTestClass().map(Class::getSimpleName).orElse("")
                        + context.getTestMethod()
                                .map(method -> "." + method.getName())
                                .orElse("");
                System.err.println("skipped " + what + ": " + Mirror.missing());
            }
            return ConditionEvaluationResult.disabled(Mirror.missing());
        }

        @Override
        public void beforeAll(ExtensionContext context) {
            Mirror.require();
        }
    }
}
