package dev.platform.karpenter.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A unit test class that reaches the jsii kernel only through {@link Synthesized} (or not at all): no cdktf construct,
 * no {@code KarpenterApp} or {@code Main} of its own. It runs without {@link KernelLock} and shares the kernel only
 * for each synthesis, so its Helm renders, schema checks and processes run beside other classes. Unmarked classes
 * hold the lock from start to end; mark a class when it is long enough for that to matter.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface KernelOnlyThroughSynthesized {}
