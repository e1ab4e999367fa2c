package dev.platform.karpenter.release;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HelmValueKeysTest {

    @Test
    void every0xReleaseReadsTheSettingsAwsKeys() {
        for (String version : new String[] {"v0.30.0", "v0.31.4"}) {
            HelmValueKeys keys = KarpenterRelease.of(version).valueKeys();
            assertThat(keys.clusterName()).hasToString("settings.aws.clusterName");
            assertThat(keys.clusterEndpoint()).hasToString("settings.aws.clusterEndpoint");
            assertThat(keys.interruptionQueue()).hasToString("settings.aws.interruptionQueueName");
            assertThat(keys.defaultInstanceProfile()).hasValueSatisfying(
                    path -> assertThat(path).hasToString("settings.aws.defaultInstanceProfile"));
        }
    }

    @Test
    void every1xReleaseReadsTheSettingsKeysAndHasNoInstanceProfile() {
        for (String version : new String[] {"1.0.0", "1.14.1"}) {
            HelmValueKeys keys = KarpenterRelease.of(version).valueKeys();
            assertThat(keys.clusterName()).hasToString("settings.clusterName");
            assertThat(keys.clusterEndpoint()).hasToString("settings.clusterEndpoint");
            assertThat(keys.interruptionQueue()).hasToString("settings.interruptionQueue");
            assertThat(keys.defaultInstanceProfile()).isEmpty();
            assertThat(KarpenterRelease.of(version).needsInstanceProfile()).isFalse();
        }
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
