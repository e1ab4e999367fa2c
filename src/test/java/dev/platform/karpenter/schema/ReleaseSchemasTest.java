package dev.platform.karpenter.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.upgrade.UpgradeSteps;
import org.junit.jupiter.api.Test;

/** The shipped files are found per minor, loaded once, and never stand in for another minor. */
class ReleaseSchemasTest {

    @Test
    void oneInstancePerMinorWhateverThePatch() {
        KarpenterRelease newest = UpgradeSteps.newestRelease();
        ReleaseSchemas schemas = ReleaseSchemas.of(newest);
        assertThat(ReleaseSchemas.of(new KarpenterRelease(newest.major(), newest.minor(), newest.patch() + 7)))
                .isSameAs(schemas);
        assertThat(schemas.upstreamTag()).startsWith("v" + newest.major() + "." + newest.minor() + ".");
    }

    @Test
    void aMinorWithoutShippedFilesIsAnErrorNamingIt() {
        KarpenterRelease newest = UpgradeSteps.newestRelease();
        KarpenterRelease unshipped = new KarpenterRelease(newest.major(), newest.minor() + 1, 0);
        assertThatThrownBy(() -> ReleaseSchemas.of(unshipped))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Karpenter " + newest.major() + "." + (newest.minor() + 1) + ".x")
                .hasMessageContaining("libexec/vendor-release");
    }
}
