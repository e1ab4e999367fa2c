package dev.platform.karpenter.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HelmValueKeysTest {

    /** @param prefix where the generation keeps its settings; 0.x also names the node instance profile */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"v0.30.0, settings.aws., interruptionQueueName, settings.aws.defaultInstanceProfile",
            "v0.31.4, settings.aws., interruptionQueueName, settings.aws.defaultInstanceProfile",
            "1.0.0, settings., interruptionQueue, ", "1.14.1, settings., interruptionQueue, "})
    void eachGenerationReadsItsOwnSettingsKeys(String chartVersion, String prefix, String queueKey, String profile) {
        KarpenterRelease release = KarpenterRelease.of(chartVersion);
        HelmValueKeys keys = release.valueKeys();
        assertThat(keys.clusterName()).hasToString(prefix + "clusterName");
        assertThat(keys.clusterEndpoint()).hasToString(prefix + "clusterEndpoint");
        assertThat(keys.interruptionQueue()).hasToString(prefix + queueKey);
        assertThat(keys.defaultInstanceProfile().map(ValuePath::toString)).isEqualTo(Optional.ofNullable(profile));
        assertThat(release.needsInstanceProfile()).isEqualTo(profile != null);
    }

    @Test
    void pathsUseHelmsSetSpellingWithDotsInsideAKeyEscaped() {
        assertThat(HelmValueKeys.SERVICE_ACCOUNT_ANNOTATIONS.child("eks.amazonaws.com/role-arn"))
                .hasToString("serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn");
    }

    @Test
    void suggestsTheNewestMinorOfEachMajor() {
        assertThat(KarpenterRelease.newestOfEachMajor()).extracting(KarpenterRelease::minorSeries)
                .containsExactly("v0.31.x", "1.14.x");
    }
}
