package dev.platform.karpenter.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The converter on excerpts of upstream's files (a1.medium, c7a.medium, p5.48xlarge), and the shipped catalogue. */
@KernelOnlyThroughSynthesized
class InstanceCatalogueTest {
    private static final CatalogueSource.Provenance PROVENANCE =
            new CatalogueSource.Provenance("v0.0.0-fixture", "0123456789abcdef0123456789abcdef01234567", "2026-08-20");

    /** Our own three-type excerpts in the layout of upstream's files (".txt": fixtures, not upstream's sources). */
    private static Map<String, String> fixture() throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        for (String file : CatalogueSource.FILES) {
            String name = file.substring(file.lastIndexOf('/') + 1);
            try (InputStream in = InstanceCatalogueTest.class.getResourceAsStream("upstream/" + name + ".txt")) {
                files.put(file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return files;
    }

    @Test
    void convertsTheSameInputsToTheSameBytes() throws IOException {
        assertThat(CatalogueSource.convert(PROVENANCE, fixture()))
                .isEqualTo(CatalogueSource.convert(PROVENANCE, fixture()));
    }

    @Test
    void keepsLabelsResourcesPricesAndTheDefaultCardsInterfaces() throws IOException {
        InstanceCatalogue catalogue =
                InstanceCatalogue.parse(new ByteArrayInputStream(CatalogueSource.convert(PROVENANCE, fixture())));
        assertThat(catalogue.types())
                .extracting(InstanceType::name)
                .containsExactly("a1.medium", "c7a.medium", "p5.48xlarge");
        assertThat(catalogue.tag()).isEqualTo("v0.0.0-fixture");
        assertThat(catalogue.commit()).isEqualTo("0123456789abcdef0123456789abcdef01234567");
        assertThat(catalogue.pricesGenerated()).isEqualTo("2026-07-06T14:20:29Z");
        assertThat(catalogue.pricesRegion()).isEqualTo("us-east-1");
        assertThat(catalogue.provenance()).containsEntry("vpc_limits_generated", "2026-05-18T17:08:55Z");

        InstanceType a1 = catalogue.types().get(0);
        assertThat(a1.labels())
                .containsEntry("kubernetes.io/arch", "arm64")
                .containsEntry("karpenter.k8s.aws/instance-memory", "2048")
                .containsEntry("node.kubernetes.io/instance-type", "a1.medium")
                .doesNotContainKey("karpenter.k8s.aws/instance-gpu-count");
        assertThat(a1.allocatable().get("cpu")).isEqualByComparingTo("0.94");
        assertThat(a1.allocatable().get("memory")).isEqualByComparingTo(BigDecimal.valueOf(1392L << 20));
        assertThat(a1.usdPerHour()).contains(new BigDecimal("0.0255"));
        assertThat(a1.interfaces()).isEqualTo(2);

        InstanceType c7a = catalogue.types().get(1);
        assertThat(c7a.usdPerHour()).contains(new BigDecimal("0.05132"));
        InstanceType p5 = catalogue.types().get(2);
        // 64 interfaces in all, 2 on the default card, which alone carries pod addresses.
        assertThat(p5.interfaces()).isEqualTo(2);
        assertThat(p5.labels()).containsEntry("karpenter.k8s.aws/instance-gpu-count", "8");
        assertThat(p5.allocatable().get("nvidia.com/gpu")).isEqualByComparingTo("8");
        assertThat(p5.usdPerHour()).isEqualTo(Optional.empty());
        assertThat(catalogue.labelKeys()).contains("karpenter.k8s.aws/instance-gpu-count", "kubernetes.io/os");
    }

    @Test
    void shippedCatalogueHoldsEveryTypeOfTheTagOnce() {
        InstanceCatalogue catalogue = InstanceCatalogue.shipped();
        assertThat(catalogue.types()).hasSize(1336);
        assertThat(catalogue.types().stream().map(InstanceType::name).distinct())
                .hasSize(1336);
        assertThat(catalogue.tag()).matches("v1\\.\\d+\\.\\d+");
        assertThat(InstanceCatalogue.shipped()).isSameAs(catalogue);
    }

    /** Upstream's documented pods and allocatable memory and CPU follow from the EC2 facts by the rules in Java. */
    @Test
    void nodeResourcesReproduceUpstreamsAllocatableForEveryType() {
        List<String> differing = InstanceCatalogue.shipped().types().stream()
                .filter(type -> {
                    NodeResources resources = NodeResources.of(type, NodeClassOffer.REFERENCE);
                    return resources
                                            .allocatable()
                                            .get("pods")
                                            .compareTo(type.allocatable().get("pods"))
                                    != 0
                            || resources
                                            .allocatable()
                                            .get("cpu")
                                            .compareTo(type.allocatable().get("cpu"))
                                    != 0
                            || resources
                                            .allocatable()
                                            .get("memory")
                                            .compareTo(type.allocatable().get("memory"))
                                    != 0;
                })
                .map(type -> type.name() + " "
                        + NodeResources.of(type, NodeClassOffer.REFERENCE).allocatable() + " vs " + type.allocatable())
                .toList();
        assertThat(differing).isEmpty();
    }
}
