package dev.platform.karpenter.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.release.KarpenterMinor.Feature;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a release is, read from its row of the release table. */
class KarpenterReleaseTest {

    static Stream<KarpenterMinor> minors() {
        return KarpenterMinor.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("minors")
    void everyPatchOfASupportedMinorParsesInEitherSpellingToTheRegistrys(KarpenterMinor minor) {
        KarpenterRelease newest = minor.newestRelease();
        String bare = newest.major() + "." + newest.minor() + "." + newest.patch();

        assertThat(KarpenterRelease.of(bare)).isEqualTo(newest);
        assertThat(KarpenterRelease.of("v" + bare)).isEqualTo(newest);
        assertThat(KarpenterRelease.of(newest.chartVersion()).chartVersion()).isEqualTo(newest.chartVersion());
        assertThat(newest.chartVersion()).isEqualTo((newest.has(Feature.CHART_VERSION_WITHOUT_V) ? "" : "v") + bare);
        assertThat(newest.row()).isEqualTo(minor);
        assertThat(newest.apiGeneration()).isEqualTo(minor.served().own());
    }

    /** AWS's migration from Karpenter to EKS Auto Mode needs Karpenter 1.1 or later on the cluster. */
    @Test
    void runningBesideAutoModeStartsAt11() {
        for (KarpenterMinor row : KarpenterMinor.all()) {
            assertThat(row.newestRelease().runsBesideAutoMode())
                    .as(row.series())
                    .isEqualTo(row.major() == 1 && row.minor() >= 1);
        }
        assertThat(KarpenterRelease.releasesBesideAutoMode())
                .isEqualTo("1.1.x to " + KarpenterRelease.newest().minorSeries());
    }

    @Test
    void theRegistrySpellsAVUpTo034() {
        assertThat(KarpenterRelease.of("0.34.13").chartVersion()).isEqualTo("v0.34.13");
        assertThat(KarpenterRelease.of("v0.35.12").chartVersion()).isEqualTo("0.35.12");
        assertThat(KarpenterRelease.of("v0.37.8").minorSeries()).isEqualTo("0.37.x");
        assertThat(KarpenterRelease.of("v1.0.0").chartVersion()).isEqualTo("1.0.0");
    }

    /** Each feature from the row that introduces it on (or at that row only), whatever the patch. */
    @Test
    void eachFeatureHoldsFromTheRowThatIntroducesItOn() {
        for (Feature feature : Feature.values()) {
            List<KarpenterMinor> having = new ArrayList<>();
            for (KarpenterMinor minor : KarpenterMinor.all()) {
                assertThat(minor.firstRelease().has(feature))
                        .as(feature + " at " + minor)
                        .isEqualTo(minor.newestRelease().has(feature));
                if (minor.firstRelease().has(feature)) {
                    having.add(minor);
                }
            }
            KarpenterMinor first = feature.introducedBy();
            assertThat(having).as(feature.name()).first().isEqualTo(first);
            List<KarpenterMinor> fromFirstOn = KarpenterMinor.all()
                    .subList(first.ordinal(), KarpenterMinor.all().size());
            assertThat(having)
                    .as(feature.name())
                    .isEqualTo(feature == Feature.CONVERSION_WEBHOOKS ? List.of(first) : fromFirstOn);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("minors")
    void theFeaturesDecideWhatTheStacksGet(KarpenterMinor minor) {
        KarpenterRelease release = minor.newestRelease();

        assertThat(release.nodeEcrPolicyName())
                .isEqualTo(
                        release.has(Feature.ECR_PULL_ONLY)
                                ? "AmazonEC2ContainerRegistryPullOnly"
                                : "AmazonEC2ContainerRegistryReadOnly");
        assertThat(release.needsInstanceProfile()).isEqualTo(!release.has(Feature.INSTANCE_PROFILES_FROM_ROLE));
        assertThat(release.valueKeys().interruptionQueue())
                .isEqualTo(
                        release.has(Feature.INSTANCE_PROFILES_FROM_ROLE)
                                ? ValuePath.of("settings", "interruptionQueue")
                                : ValuePath.of("settings", "aws", "interruptionQueueName"));
        assertThat(release.supportsPodIdentity()).isEqualTo(release.has(Feature.POD_IDENTITY));
        assertThat(release.handlesCapacityReservationInterruptions())
                .isEqualTo(release.has(Feature.CAPACITY_RESERVATION_INTERRUPTIONS));
        assertThat(release.crdWebhookNamespace().isPresent()).isEqualTo(release.has(Feature.CONVERSION_WEBHOOKS));
    }

    /** The rows as upstream's release notes have them. */
    @Test
    void theFeaturesStartWhereUpstreamIntroducedThem() {
        assertThat(Feature.INSTANCE_PROFILES_FROM_ROLE.introducedBy()).isEqualTo(KarpenterMinor.V0_32);
        assertThat(Feature.AL2023.introducedBy()).isEqualTo(KarpenterMinor.V0_35);
        assertThat(Feature.CHART_VERSION_WITHOUT_V.introducedBy()).isEqualTo(KarpenterMinor.V0_35);
        assertThat(Feature.POD_IDENTITY.introducedBy()).isEqualTo(KarpenterMinor.V0_33);
        assertThat(Feature.ECR_PULL_ONLY.introducedBy()).isEqualTo(KarpenterMinor.V1_0);
        assertThat(Feature.CONVERSION_WEBHOOKS.introducedBy()).isEqualTo(KarpenterMinor.V1_0);
        assertThat(Feature.CAPACITY_RESERVATION_INTERRUPTIONS.introducedBy()).isEqualTo(KarpenterMinor.V1_10);
        assertThat(KarpenterRelease.of("1.9.2").handlesCapacityReservationInterruptions())
                .isFalse();
    }

    @Test
    void theRowsAreTheSupportedMinorsInOrderWithoutGaps() {
        List<KarpenterMinor> rows = KarpenterMinor.all();
        for (int i = 1; i < rows.size(); i++) {
            KarpenterMinor before = rows.get(i - 1);
            KarpenterMinor row = rows.get(i);
            boolean next = row.major() == before.major()
                    ? row.minor() == before.minor() + 1
                    : row.major() == before.major() + 1 && row.minor() == 0;
            assertThat(next).as(before + " then " + row).isTrue();
            assertThat(row.served().ordinal())
                    .as(row.name())
                    .isGreaterThanOrEqualTo(before.served().ordinal());
            assertThat(row.policy().ordinal())
                    .as(row.name())
                    .isGreaterThanOrEqualTo(before.policy().ordinal());
        }
        for (KarpenterMinor row : rows) {
            row.firstStepRelease()
                    .ifPresent(step -> assertThat(step.patch())
                            .as(row.name())
                            .isLessThanOrEqualTo(row.newestRelease().patch()));
        }
        assertThat(KarpenterRelease.newest())
                .isEqualTo(rows.get(rows.size() - 1).newestRelease());
    }

    @Test
    void theSupportedReleasesAreNamedAsSpansOfTheTable() {
        assertThat(KarpenterRelease.SUPPORTED)
                .isEqualTo("v0.30.x to 0.37.x or 1.0.x to "
                        + KarpenterMinor.newest().series());
    }

    static Stream<Arguments> unsupported() {
        KarpenterMinor newest = KarpenterMinor.newest();
        return Stream.of(
                Arguments.of("v0.29.0"),
                Arguments.of("0.38.0"),
                Arguments.of(newest.major() + "." + (newest.minor() + 1) + ".0"),
                Arguments.of((newest.major() + 1) + ".0.0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unsupported")
    void rejectsReleasesOutsideTheTableNamingWhatIsSupported(String version) {
        assertThatThrownBy(() -> KarpenterRelease.of(version))
                .hasMessage("karpenter_chart_version \"" + version + "\" is not supported; supported: "
                        + KarpenterRelease.SUPPORTED);
    }

    @Test
    void rejectsWhatIsNoReleaseVersion() {
        assertThatThrownBy(() -> KarpenterRelease.of("1.2")).hasMessageContaining("is not a release version");
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
}
