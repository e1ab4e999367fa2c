package dev.platform.karpenter.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KarpenterReleaseTest {

    @Test
    void v0ReleasesUseTheAlphaApisAndTheSeedsSettings() {
        KarpenterRelease release = KarpenterRelease.of("v0.30.0");

        assertThat(release.apiGeneration()).isEqualTo(ApiGeneration.V1ALPHA5);
        assertThat(release.chartVersion()).isEqualTo("v0.30.0");
        assertThat(release.supportedKubernetes()).isEqualTo(new KubernetesRange(23, 27));
        assertThat(release.poolTagKey()).isEqualTo("karpenter.sh/provisioner-name");
        assertThat(release.nodeEcrPolicyName()).isEqualTo("AmazonEC2ContainerRegistryReadOnly");
        assertThat(release.needsInstanceProfile()).isTrue();
        assertThat(release.handlesCapacityReservationInterruptions()).isFalse();
        assertThat(release.supportsPodIdentity()).isFalse();
    }

    @Test
    void v1ReleasesUseTheV1ApisWithoutTheLeadingV() {
        KarpenterRelease release = KarpenterRelease.of("1.14.1");

        assertThat(release.apiGeneration()).isEqualTo(ApiGeneration.V1);
        assertThat(release.chartVersion()).isEqualTo("1.14.1");
        assertThat(release.supportedKubernetes()).isEqualTo(new KubernetesRange(26, 36));
        assertThat(release.poolTagKey()).isEqualTo("karpenter.sh/nodepool");
        assertThat(release.nodeEcrPolicyName()).isEqualTo("AmazonEC2ContainerRegistryPullOnly");
        assertThat(release.needsInstanceProfile()).isFalse();
        assertThat(release.handlesCapacityReservationInterruptions()).isTrue();
        assertThat(release.supportsPodIdentity()).isTrue();
    }

    @Test
    void capacityReservationHandlingStartsAt110() {
        assertThat(KarpenterRelease.of("1.9.0").handlesCapacityReservationInterruptions()).isFalse();
        assertThat(KarpenterRelease.of("1.10.0").handlesCapacityReservationInterruptions()).isTrue();
    }

    @Test
    void kubernetesRangeChecksMinorVersions() {
        KubernetesRange range = KarpenterRelease.of("v0.30.0").supportedKubernetes();

        assertThat(range.contains("1.27")).isTrue();
        assertThat(range.contains("1.23")).isTrue();
        assertThat(range.contains("1.28")).isFalse();
        assertThat(range.contains("1.22")).isFalse();
        assertThat(range).hasToString("1.23 to 1.27");
    }

    @Test
    void theV1beta1ReleasesAreTheirOwnGenerationWithTheRegistrysSpelling() {
        KarpenterRelease v032 = KarpenterRelease.of("0.32.10");
        assertThat(v032.apiGeneration()).isEqualTo(ApiGeneration.V1BETA1);
        assertThat(v032.chartVersion()).isEqualTo("v0.32.10");
        assertThat(KarpenterRelease.of("0.34.13").chartVersion()).isEqualTo("v0.34.13");
        assertThat(KarpenterRelease.of("v0.35.12").chartVersion()).isEqualTo("0.35.12");
        assertThat(KarpenterRelease.of("v0.37.8").minorSeries()).isEqualTo("0.37.x");
        assertThat(v032.poolTagKey()).isEqualTo("karpenter.sh/nodepool");
        assertThat(v032.nodeEcrPolicyName()).isEqualTo("AmazonEC2ContainerRegistryReadOnly");
        assertThat(v032.valueKeys().interruptionQueue()).isEqualTo(ValuePath.of("settings", "interruptionQueue"));
        assertThat(v032.supportedKubernetes()).hasToString("1.23 to 1.28");
        assertThat(KarpenterRelease.of("0.37.8").supportedKubernetes()).hasToString("1.23 to 1.30");
        assertThat(v032.supportsPodIdentity()).isFalse();
    }

    @Test
    void rejectsUnknownReleases() {
        assertThatThrownBy(() -> KarpenterRelease.of("v0.29.0")).hasMessageContaining("is not supported");
        assertThatThrownBy(() -> KarpenterRelease.of("0.38.0")).hasMessageContaining("is not supported");
        assertThatThrownBy(() -> KarpenterRelease.of("1.15.0")).hasMessageContaining("is not supported");
        assertThatThrownBy(() -> KarpenterRelease.of("1.14")).hasMessageContaining("is not a release version");
    }
}
