package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.config.Setting.Scope;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.upgrade.UpgradeSteps;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The catalogue against what the code reads, and the rules its entries state. */
class SettingsCatalogueTest {
    private static final Path EXAMPLE = Path.of("terraform.tfvars.example");

    @Test
    void theCodeReadsEveryCataloguedSettingAndNoOther() {
        SettingsReader settings = SettingsReader.cluster(TfvarsFile.parse(EXAMPLE));
        ClusterConfig.from(settings);

        assertThat(settings.readKeys()).containsExactlyInAnyOrderElementsOf(keysIn(Scope.CLUSTER));
    }

    @Test
    void aNodePoolsEntryIsReadByTheCataloguesPoolSettingsAndNoOther() {
        SettingsReader entry = SettingsReader.pool(Map.of("name", "extra"));
        PoolSettings.extra(entry, PoolSettings.defaults(SettingsReader.cluster(Map.of())), "node_pools[0]");

        assertThat(entry.readKeys()).containsExactlyInAnyOrderElementsOf(keysIn(Scope.NODE_POOL));
    }

    @Test
    void aSettingIsReadOnlyWhereTheCatalogueSaysItMayBeWritten() {
        assertThatThrownBy(() -> SettingsReader.cluster(Map.of()).optional(SettingsCatalogue.NODE_POOL_NAME))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("name is not read in cluster");
        assertThatThrownBy(() -> SettingsReader.pool(Map.of()).optional(SettingsCatalogue.REGION))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> SettingsReader.cluster(Map.of()).string("region", ""))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("read it by its SettingsCatalogue entry");
    }

    @Test
    void releaseSpansAreWordedFromTheSupportedReleases() {
        assertThat(SettingsCatalogue.CONSOLIDATE_AFTER.releases().text()).isEqualTo("0.32 and later");
        assertThat(SettingsCatalogue.TTL_SECONDS_AFTER_EMPTY.releases().text())
                .isEqualTo("0.30 to 0.32 (v1alpha5 Provisioners)");
        assertThat(SettingsCatalogue.AMI_VERSION.releases().text()).isEqualTo("1.x (v1 EC2NodeClass alias)");
        assertThat(ControllerIdentity.POD_IDENTITY.releases().text()).isEqualTo("0.33 and later");
        assertThat(ReleaseSpan.ALL.text()).isEqualTo("0.30 and later");
    }

    @Test
    void everyReleaseSpanHoldsForSomeSupportedRelease() {
        List<DeclaredApis> deploys = KarpenterMinor.all().stream()
                .flatMap(minor -> Stream.of(minor.firstRelease(), minor.newestRelease()))
                .flatMap(release -> Stream.of(DeclaredApis.keeping(release), DeclaredApis.retiring(release)))
                .toList();
        for (Setting<?> setting : SettingsCatalogue.all()) {
            assertThat(deploys).as(setting.key()).anyMatch(setting.releases()::contains);
            for (Setting.Allowed allowed : setting.allowed()) {
                assertThat(deploys).as(setting.key() + " " + allowed.value()).anyMatch(allowed.releases()::contains);
            }
        }
    }

    @Test
    void boundsAndAllowedValuesAreCheckedFromTheEntry() {
        assertRejected("controller_replicas = 0", "controller_replicas must be at least 1, got 0");
        assertRejected(
                "capacity_types = [\"spot\", \"spot-block\"]",
                "capacity_types must contain only one of \"spot\", \"on-demand\", \"reserved\", got \"spot-block\"");
        assertRejected("ttl_seconds_after_empty = -1", "ttl_seconds_after_empty must not be negative, got -1");
    }

    private static void assertRejected(String line, String message) {
        TestConfigs.assertRejected(
                TestConfigs.tfvars(UpgradeSteps.newestRelease().chartVersion(), line), message);
    }

    @Test
    void aSettingIsDeclaredOncePerPlace() {
        for (Scope scope : Scope.values()) {
            List<String> keys =
                    SettingsCatalogue.in(scope).stream().map(Setting::key).toList();
            assertThat(keys).as(scope.where()).doesNotHaveDuplicates();
        }
    }

    private static List<String> keysIn(Scope scope) {
        return SettingsCatalogue.in(scope).stream().map(Setting::key).toList();
    }
}
