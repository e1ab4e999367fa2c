package dev.platform.karpenter.versions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KarpenterReleaseTest {

    /** v0.x: the seed's alpha APIs and settings; 1.x: the v1 APIs, spelled without the leading v. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "v0.30.0, V1ALPHA5, 23, 27, AmazonEC2ContainerRegistryReadOnly, true, false, false",
        "1.14.1, V1, 26, 36, AmazonEC2ContainerRegistryPullOnly, false, true, true"
    })
    void eachGenerationHasItsApisPoliciesAndFeatures(
            String version,
            ApiGeneration apis,
            int minKubernetes,
            int maxKubernetes,
            String ecrPolicy,
            boolean instanceProfile,
            boolean capacityReservations,
            boolean podIdentity) {
        KarpenterRelease release = KarpenterRelease.of(version);

        assertThat(release.apiGeneration()).isEqualTo(apis);
        assertThat(release.chartVersion()).isEqualTo(version);
        assertThat(release.supportedKubernetes()).isEqualTo(new KubernetesRange(minKubernetes, maxKubernetes));
        assertThat(release.nodeEcrPolicyName()).isEqualTo(ecrPolicy);
        assertThat(release.needsInstanceProfile()).isEqualTo(instanceProfile);
        assertThat(release.handlesCapacityReservationInterruptions()).isEqualTo(capacityReservations);
        assertThat(release.supportsPodIdentity()).isEqualTo(podIdentity);
    }

    @Test
    void capacityReservationHandlingStartsAt110() {
        assertThat(KarpenterRelease.of("1.9.0").handlesCapacityReservationInterruptions())
                .isFalse();
        assertThat(KarpenterRelease.of("1.10.0").handlesCapacityReservationInterruptions())
                .isTrue();
    }

    /** AWS's migration from Karpenter to EKS Auto Mode needs Karpenter 1.1 or later on the cluster. */
    @Test
    void runningBesideAutoModeStartsAt11() {
        List<KarpenterRelease> minors = new ArrayList<>();
        for (int major = 0; major <= UpgradeSteps.newestRelease().major(); major++) {
            for (int minor = 0; minor <= 99; minor++) {
                KarpenterRelease release = new KarpenterRelease(major, minor, 0);
                if (release.isSupported()) {
                    minors.add(release);
                }
            }
        }
        assertThat(minors).hasSizeGreaterThan(20);
        for (KarpenterRelease release : minors) {
            assertThat(release.runsBesideAutoMode())
                    .as(release.chartVersion())
                    .isEqualTo(release.major() == 1 && release.minor() >= 1);
        }
        assertThat(KarpenterRelease.releasesBesideAutoMode())
                .isEqualTo("1.1.x to " + UpgradeSteps.newestRelease().minorSeries());
    }

    @Test
    void kubernetesSupportFollowsUpstreamsMatrixToThePatch() {
        assertThat(KarpenterRelease.of("1.0.4").supportedKubernetes()).isEqualTo(new KubernetesRange(25, 30));
        assertThat(KarpenterRelease.of("1.0.5").supportedKubernetes()).isEqualTo(new KubernetesRange(25, 31));
        assertThat(KarpenterRelease.of("1.4.0").supportedKubernetes()).isEqualTo(new KubernetesRange(25, 32));
        assertThat(KarpenterRelease.of("1.13.0").supportedKubernetes()).isEqualTo(new KubernetesRange(26, 36));
        // The v1beta1 releases are not generated here, but their range is known (another generation may use it).
        assertThat(new KarpenterRelease(0, 32, 0).supportedKubernetes()).isEqualTo(new KubernetesRange(23, 28));
        assertThat(new KarpenterRelease(0, 37, 8).supportedKubernetes()).isEqualTo(new KubernetesRange(23, 30));
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
