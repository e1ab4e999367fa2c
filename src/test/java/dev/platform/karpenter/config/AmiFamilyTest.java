package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.NodePoolRules;
import java.util.List;
import org.junit.jupiter.api.Test;

class AmiFamilyTest {

    @Test
    void amazonLinux2StopsAtKubernetes132() {
        assertThat(AmiFamily.AL2.newestKubernetesMinor()).contains(32);
        assertThat(AmiFamily.AL2023.newestKubernetesMinor()).isEmpty();
        assertThat(AmiFamily.BOTTLEROCKET.newestKubernetesMinor()).isEmpty();
    }

    @Test
    void eachFamilyNamesItsAliasAndVersionFormat() {
        assertThat(AmiFamily.BOTTLEROCKET.alias("v1.10.0")).isEqualTo("bottlerocket@v1.10.0");
        assertThat(AmiFamily.AL2023.alias("latest")).isEqualTo("al2023@latest");
        assertThat(AmiFamily.BOTTLEROCKET.isReleaseVersion("v1.10.0")).isTrue();
        assertThat(AmiFamily.BOTTLEROCKET.isReleaseVersion("v20240625")).isFalse();
        assertThat(AmiFamily.AL2.isReleaseVersion("v20240625")).isTrue();
        assertThat(AmiFamily.AL2023.isReleaseVersion(AmiFamily.AL2023.exampleVersion()))
                .isTrue();
    }

    @Test
    void onlyBottlerocketBringsItsOwnVolumes() {
        assertThat(AmiFamily.BOTTLEROCKET.blockDevices())
                .extracting(d -> d.deviceName() + " " + d.ebs().volumeSize())
                .containsExactly("/dev/xvda 4Gi", "/dev/xvdb 20Gi");
        assertThat(AmiFamily.AL2023.blockDevices()).isEmpty();
    }

    @Test
    void al2023ComesWithKarpenter035AndNotBesideProvisioners() {
        List<AmiFamily> everyRelease = List.of(
                AmiFamily.BOTTLEROCKET, AmiFamily.AL2, AmiFamily.WINDOWS2019, AmiFamily.WINDOWS2022, AmiFamily.CUSTOM);
        assertThat(AmiFamily.acceptedByAll(NodePoolRules.of(KarpenterRelease.of("v0.31.5"))))
                .containsExactlyElementsOf(everyRelease);
        assertThat(AmiFamily.acceptedByAll(NodePoolRules.of(DeclaredApis.keeping(KarpenterRelease.of("v0.32.10")))))
                .containsExactlyElementsOf(everyRelease);
        // v1beta1's EC2NodeClass enum has no AL2023 before 0.35 (0.33.6+ and 0.34.7+ list it in their v1 CRD only)
        assertThat(AmiFamily.acceptedByAll(NodePoolRules.of(KarpenterRelease.of("v0.34.13"))))
                .containsExactlyElementsOf(everyRelease);
        assertThat(AmiFamily.acceptedByAll(NodePoolRules.of(KarpenterRelease.of("0.35.12"))))
                .contains(AmiFamily.AL2023)
                .doesNotContain(AmiFamily.WINDOWS2025);
        assertThat(AmiFamily.AL2023.releases().text()).isEqualTo("0.35 and later");
        assertThat(AmiFamily.WINDOWS2025.releases().text()).isEqualTo("1.9 and later");
        assertThat(AmiFamily.acceptedByAll(NodePoolRules.of(KarpenterRelease.newest())))
                .containsExactly(AmiFamily.values());
    }

    /** A spec names a family by its amiFamily spelling or its alias: each reads back as that family. */
    @Test
    void eachFamilyReadsBackFromItsSpellingAndAlias() {
        for (AmiFamily family : AmiFamily.values()) {
            assertThat(AmiFamily.ofSetting(family.setting())).contains(family);
            if (family.hasAlias()) {
                assertThat(AmiFamily.ofAlias(family.alias("latest"))).contains(family);
            }
        }
        assertThat(AmiFamily.ofAlias("ubuntu@latest")).isEmpty();
        assertThat(AmiFamily.WINDOWS2022.os()).isEqualTo(AmiFamily.Os.WINDOWS);
        assertThat(AmiFamily.CUSTOM.os()).isEqualTo(AmiFamily.Os.LINUX); // Karpenter's getOS
        assertThat(AmiFamily.CUSTOM.hasAlias()).isFalse();
    }
}
