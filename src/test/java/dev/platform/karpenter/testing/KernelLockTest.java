package dev.platform.karpenter.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The kernel's turns: one holder at a time, a waiter gives its pool a spare thread, nothing stays held. On turns of
 * their own, not the suite's kernel, which another class may hold for as long as it runs.
 */
@KernelOnlyThroughSynthesized
class KernelLockTest {
    private final KernelLock.Turns turns = new KernelLock.Turns();

    @Test
    void aWaiterRunsAfterTheHolderAndItsPoolRunsOtherWorkMeanwhile() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> turns.whileHeld(() -> {
            holding.countDown();
            await(release);
            return null;
        }));
        holder.start();
        assertThat(holding.await(1, TimeUnit.MINUTES)).isTrue();
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            CountDownLatch waiting = new CountDownLatch(1);
            ForkJoinTask<Boolean> waiter = pool.submit(() -> {
                waiting.countDown();
                String ran = turns.whileHeld(() -> "ran");
                return ran.equals("ran") && !turns.isHeldHere();
            });
            assertThat(waiting.await(1, TimeUnit.MINUTES)).isTrue();
            // The pool's one worker waits for the kernel; told so, the pool starts a spare, which runs this.
            assertThat(pool.submit(() -> "beside").get(1, TimeUnit.MINUTES)).isEqualTo("beside");
            assertThat(waiter.isDone()).isFalse();

            release.countDown();
            assertThat(waiter.get(1, TimeUnit.MINUTES))
                    .as("ran after the holder and left nothing held")
                    .isTrue();
        } finally {
            release.countDown();
            pool.shutdown();
        }
        holder.join(TimeUnit.MINUTES.toMillis(1));
    }

    @Test
    void theHolderMayTakeItAgainAndNestedTurnsReleaseIt() {
        assertThat(turns.whileHeld(() -> turns.whileHeld(turns::isHeldHere))).isTrue();
        assertThat(turns.isHeldHere()).isFalse();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(1, TimeUnit.MINUTES)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
