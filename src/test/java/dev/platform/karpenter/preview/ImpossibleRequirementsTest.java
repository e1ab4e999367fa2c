package dev.platform.karpenter.preview;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.catalog.LabelRequirement;
import dev.platform.karpenter.catalog.NodeClassOffer;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Requirements no instance type could ever meet, whatever the catalogue, and what stays possible. */
class ImpossibleRequirementsTest {
    private static final String CPU = "karpenter.k8s.aws/instance-cpu";
    private static final String FAMILY = "karpenter.k8s.aws/instance-family";

    private static LabelRequirement requirement(String key, String operator, String... values) {
        return new LabelRequirement(key, operator, List.of(values), Optional.empty(), "r");
    }

    private static Optional<String> find(boolean relaxed, LabelRequirement... requirements) {
        return ImpossibleRequirements.find("pool \"p\"", List.of(requirements), linuxAmd64(), relaxed);
    }

    private static NodeClassOffer linuxAmd64() {
        return NodeClassOffer.REFERENCE;
    }

    @Test
    void impossible() {
        assertThat(find(false, requirement(FAMILY, "In"))).get().asString().contains("In with no values");
        assertThat(find(false, requirement(FAMILY, "In", "c7a", "m7a"), requirement(FAMILY, "NotIn", "m7a", "c7a")))
                .get()
                .asString()
                .contains("leave no value of " + FAMILY);
        assertThat(find(false, requirement(FAMILY, "In", "c7a"), requirement(FAMILY, "In", "m7a")))
                .isPresent();
        assertThat(find(false, requirement(CPU, "Gt", "4"), requirement(CPU, "Lt", "5")))
                .get()
                .asString()
                .contains("leave no whole number");
        assertThat(find(false, requirement(CPU, "Gte", "5"), requirement(CPU, "Lte", "4")))
                .isPresent();
        assertThat(find(false, requirement(CPU, "In", "2", "4"), requirement(CPU, "Gt", "4")))
                .isPresent();
        assertThat(find(false, requirement("team", "Exists"), requirement("team", "DoesNotExist")))
                .get()
                .asString()
                .contains("to exist and not to");
    }

    @Test
    void possible() {
        assertThat(find(false, requirement(CPU, "Gt", "4"), requirement(CPU, "Lt", "6")))
                .isEmpty();
        assertThat(find(false, requirement(CPU, "Gte", "4"), requirement(CPU, "Lte", "4")))
                .isEmpty();
        assertThat(find(false, requirement(CPU, "In", "2", "8"), requirement(CPU, "Gt", "4")))
                .isEmpty();
        assertThat(find(false, requirement(FAMILY, "In", "p3", "p9z")))
                .as("unknown values: the catalogue's concern")
                .isEmpty();
        assertThat(find(false, requirement("team", "NotIn", "a"), requirement("team", "DoesNotExist")))
                .isEmpty();
    }

    /** minValues above the values left: impossible, unless BestEffort relaxes it (and the API server admits it). */
    @Test
    void minValuesAboveTheValuesLeft() {
        LabelRequirement three = new LabelRequirement(FAMILY, "In", List.of("c7a", "m7a", "r7a"), Optional.of(3), "r0");
        assertThat(find(false, three, requirement(FAMILY, "NotIn", "r7a")))
                .get()
                .asString()
                .contains("allow only 2");
        assertThat(find(true, three, requirement(FAMILY, "NotIn", "r7a"))).isEmpty();
        LabelRequirement listed = new LabelRequirement(FAMILY, "In", List.of("c7a", "m7a"), Optional.of(3), "r0");
        assertThat(find(true, listed)).get().asString().contains("but lists 2");
    }

    @Test
    void architecturesTheNodeClassNeverRuns() {
        assertThat(find(false, requirement("kubernetes.io/arch", "In", "arm64")))
                .isEmpty();
        NodeClassOffer windows = new NodeClassOffer(
                NodeClassOffer.AmiKind.WINDOWS, "windows", Set.of("amd64"), NodeClassOffer.Kubelet.DEFAULT);
        assertThat(ImpossibleRequirements.find(
                        "pool \"p\"", List.of(requirement("kubernetes.io/arch", "In", "arm64")), windows, false))
                .get()
                .asString()
                .contains("admits none of the architectures its node class runs (windows, amd64)");
    }
}
