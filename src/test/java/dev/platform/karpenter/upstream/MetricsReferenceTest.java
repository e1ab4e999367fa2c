package dev.platform.karpenter.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.Mirror;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.upstream.MetricsReference.Metric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a metrics reference page becomes facts (VendoredFactsTest compares the committed facts with the mirror). */
class MetricsReferenceTest {
    private static final Path RELEASES = Path.of("src/main/resources/dev/platform/karpenter/release/releases");

    /** A page in the shape upstream generates it (our own text, not upstream's). */
    private static final String PAGE = """
            ---
            title: "Metrics"
            ---
            Intro text.
            ### `karpenter_build_info`
            Prose about it.
            - Stability Level: STABLE

            ## Nodeclaims Metrics

            ### `karpenter_nodeclaims_created_total`
            Prose with a `karpenter_not_a_heading` in it.
            - Stability Level: BETA

            ### `karpenter_nodeclaims_drifted`
            Before stability levels.

            ## AWS SDK Go Metrics

            ### `aws_sdk_go_request_total`
            """;

    @Test
    void pageBecomesNameGroupAndStabilityPerMetric() {
        assertThat(MetricsReference.metrics(PAGE))
                .containsExactly(
                        new Metric("karpenter_build_info", "-", "STABLE"),
                        new Metric("karpenter_nodeclaims_created_total", "Nodeclaims", "BETA"),
                        new Metric("karpenter_nodeclaims_drifted", "Nodeclaims", "-"),
                        new Metric("aws_sdk_go_request_total", "AWS SDK Go", "-"));
    }

    @Test
    void factsAreSortedByNameWithAHeaderNamingTagCommitAndPageAndNoProse() {
        String facts = MetricsReference.facts("v9.9.9", "abc123", MetricsReference.PAGE, PAGE);

        assertThat(facts).isEqualTo("""
                        # Metrics of Karpenter v9.9.9 (aws/karpenter-provider-aws abc123)
                        # derived by dev.platform.karpenter.upstream.MetricsReference from website/content/en/docs/reference/metrics.md
                        # NAME GROUP STABILITY ("-": the page states none); groups with spaces as '_'
                        aws_sdk_go_request_total AWS_SDK_Go -
                        karpenter_build_info - STABLE
                        karpenter_nodeclaims_created_total Nodeclaims BETA
                        karpenter_nodeclaims_drifted Nodeclaims -
                        """);
        assertThat(MetricsReference.names(facts))
                .containsExactly(
                        "aws_sdk_go_request_total",
                        "karpenter_build_info",
                        "karpenter_nodeclaims_created_total",
                        "karpenter_nodeclaims_drifted");
    }

    @Test
    @NeedsUpstreamMirror
    void theOldPagePlaceIsReadAtTheTagsThatHaveIt() throws IOException {
        Path mirror = Mirror.require().root();
        for (String tag : List.of("v0.30.0", "v0.31.5")) {
            assertThat(MetricsReference.pageAt(mirror, tag)).endsWith(Path.of(MetricsReference.OLD_PAGE));
            assertThat(Files.readString(RELEASES.resolve(tag.substring(1, 5)).resolve(MetricsReference.FILE)))
                    .contains(MetricsReference.OLD_PAGE);
        }
    }
}
