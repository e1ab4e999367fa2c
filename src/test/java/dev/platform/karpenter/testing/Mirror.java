package dev.platform.karpenter.testing;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.platform.karpenter.upstream.UpstreamMirror;
import java.util.Optional;

/**
 * The upstream mirror the tests read upstream's charts, CRDs and examples from ({@link UpstreamMirror}, named by
 * {@value UpstreamMirror#VARIABLE}; .ci/run sets it). Without one, a test that needs it is skipped with one line
 * saying how to get one; under CI ({@code CI=true}) it fails instead, like the integration tests without their tools.
 */
public final class Mirror {
    private static final Optional<UpstreamMirror> MIRROR = UpstreamMirror.fromEnvironment(System.getenv());

    private Mirror() {}

    /** Whether the tests have a mirror. */
    public static boolean available() {
        return MIRROR.isPresent();
    }

    /** The one line a test without a mirror is skipped (or, under CI, fails) with. */
    public static String missing() {
        return "needs the upstream mirror: " + UpstreamMirror.howToGetOne();
    }

    /** Whether a missing mirror fails the tests rather than skipping them. */
    static boolean required() {
        return "true".equals(System.getenv("CI"));
    }

    /** The mirror; without one the calling test is aborted, or under CI fails. */
    public static UpstreamMirror require() {
        if (MIRROR.isPresent()) {
            return MIRROR.get();
        }
        if (required()) {
            fail(missing());
        }
        return abort(missing());
    }
}
