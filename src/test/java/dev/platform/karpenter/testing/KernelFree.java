package dev.platform.karpenter.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A unit test class that does not use the jsii kernel (no synthesis, no cdktf construct, not even through another
 * test class's fixture; the kernel and cdktf's Java runtime serve one thread): it runs on a second thread beside the
 * other classes, which run one after another on the first. Those mostly wait, for the kernel and for the processes
 * they start, so this one fills the time. One such class at a time (the lock), its tests in order; Helm renders
 * take turns in {@link dev.platform.karpenter.testing.kubernetes.HelmRender}. Surefire turns JUnit's parallel
 * execution on (pom.xml).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("kernel-free")
public @interface KernelFree {}
