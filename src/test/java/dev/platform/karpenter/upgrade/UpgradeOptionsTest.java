package dev.platform.karpenter.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** bin/upgrade-path's command line: typed values, and every mistake in one line with the usage where it helps. */
class UpgradeOptionsTest {
    private static final KarpenterRelease NEWEST = KarpenterRelease.newest();
    private static final KarpenterRelease OLDEST = KarpenterMinor.all().get(0).firstRelease();

    @Test
    void nothingGivenReadsTheStateAndTargetsTheNewest() {
        assertThat(UpgradeOptions.parse())
                .isEqualTo(new UpgradeOptions(
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
    }

    @Test
    void everyOptionInAnyOrderWithTheTfvarsFile() {
        assertThat(UpgradeOptions.parse(
                        "c1.tfvars",
                        "--to",
                        NEWEST.chartVersion(),
                        "--from",
                        OLDEST.chartVersion(),
                        "--from-api",
                        "v1alpha5",
                        "--kubernetes",
                        "1.29"))
                .isEqualTo(new UpgradeOptions(
                        Optional.of(OLDEST),
                        Optional.of(ApiGeneration.V1ALPHA5),
                        Optional.of(NEWEST),
                        Optional.of("1.29"),
                        Optional.of(Path.of("c1.tfvars"))));
    }

    @Test
    void eachGenerationByItsSpelling() {
        for (String spelling : new String[] {"v1alpha5", "v1beta1", "v1"}) {
            assertThat(UpgradeOptions.parse("--from", NEWEST.chartVersion(), "--from-api", spelling)
                            .fromApi()
                            .map(Enum::name))
                    .contains(spelling.toUpperCase(java.util.Locale.ROOT));
        }
    }

    @Test
    void mistakesAreOneLine() {
        String usage = "usage: bin/upgrade-path [--from VERSION [--from-api v1alpha5|v1beta1|v1]] [--to VERSION]"
                + " [--kubernetes 1.N] [TFVARS]";
        assertRefused(new String[] {"--to"}, "--to needs a value; " + usage);
        assertRefused(new String[] {"--verbose"}, "unexpected argument \"--verbose\"; " + usage);
        assertRefused(new String[] {"a.tfvars", "b.tfvars"}, "unexpected argument \"b.tfvars\"; " + usage);
        assertRefused(new String[] {"--from-api", "v1"}, "--from-api needs --from; " + usage);
        assertRefused(
                new String[] {"--from", NEWEST.chartVersion(), "--from-api", "v2"},
                "--from-api must be v1alpha5, v1beta1 or v1, got \"v2\"");
        assertRefused(
                new String[] {"--kubernetes", "129"},
                "--kubernetes must be a Kubernetes minor version such as 1.29, got \"129\"");
        assertThatThrownBy(() -> UpgradeOptions.parse("--from", "0.29.0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("karpenter_chart_version \"0.29.0\" is not supported; supported: ");
    }

    private static void assertRefused(String[] args, String message) {
        assertThatThrownBy(() -> UpgradeOptions.parse(args))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message);
    }
}
