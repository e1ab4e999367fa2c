package dev.platform.karpenter.testing;

import java.time.Duration;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The jsii kernel serves one thread at a time: the runtime writes a request and reads its answer on one pipe, and
 * nothing in it orders two callers. The unit suite runs two test classes at once (pom.xml), so every class holds
 * this lock from its first class-level callback to its last, unless it is {@link KernelOnlyThroughSynthesized};
 * {@link Synthesized} holds it for each synthesis. This extension is registered for every class (ServiceLoader,
 * with JUnit's extension auto-detection on in pom.xml). The one kernel use before a class's callbacks is a static
 * {@code @RegisterExtension} field being initialized, and those are {@link Synthesized}. A thread waiting here is a
 * managed blocker: JUnit's pool runs another class on a spare thread meanwhile, so no core idles.
 *
 * <p>A class whose static fields synthesize is marked, and so is every class that reads them: an unmarked class,
 * holding the lock, that waited for another thread initializing such a class would wait forever, as that thread
 * waits for the lock. A wait longer than {@link #PATIENCE} fails instead, naming the lock.
 */
public final class KernelLock implements BeforeAllCallback, AfterAllCallback {
    /** No class holds the kernel for minutes: the longest synthesizes and renders for a few seconds. */
    static final Duration PATIENCE = Duration.ofMinutes(5);

    /** The suite's one kernel. */
    private static final Turns KERNEL = new Turns();

    private static final ExtensionContext.Namespace HELD = ExtensionContext.Namespace.create(KernelLock.class);

    /** {@code work}, with the kernel to this thread alone. */
    public static <T> T whileHeld(Supplier<T> work) {
        return KERNEL.whileHeld(work);
    }

    /** Whether this thread holds the kernel. */
    static boolean isHeldHere() {
        return KERNEL.isHeldHere();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (!AnnotationSupport.isAnnotated(context.getRequiredTestClass(), KernelOnlyThroughSynthesized.class)) {
            KERNEL.acquire();
            context.getStore(HELD).put(KernelLock.class, true);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (context.getStore(HELD).remove(KernelLock.class) != null) {
            KERNEL.release();
        }
    }

    /**
     * Turns at one resource: the mechanism, apart from the suite's kernel, so that its own test does not wait for
     * whatever class of the suite holds the kernel at the time.
     */
    static final class Turns {
        private final ReentrantLock lock = new ReentrantLock();

        <T> T whileHeld(Supplier<T> work) {
            acquire();
            try {
                return work.get();
            } finally {
                release();
            }
        }

        boolean isHeldHere() {
            return lock.isHeldByCurrentThread();
        }

        void release() {
            lock.unlock();
        }

        void acquire() {
            if (lock.tryLock()) {
                return;
            }
            try {
                ForkJoinPool.managedBlock(new ForkJoinPool.ManagedBlocker() {
                    private boolean held;

                    @Override
                    public boolean block() throws InterruptedException {
                        held = lock.tryLock(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                        if (!held) {
                            throw new IllegalStateException("waited " + PATIENCE.toMinutes() + " minutes for the jsii"
                                    + " kernel: a class holding it waits for this thread (see testing.KernelLock)");
                        }
                        return true;
                    }

                    @Override
                    public boolean isReleasable() {
                        if (!held) {
                            held = lock.tryLock();
                        }
                        return held;
                    }
                });
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for the jsii kernel", e);
            }
        }
    }
}
