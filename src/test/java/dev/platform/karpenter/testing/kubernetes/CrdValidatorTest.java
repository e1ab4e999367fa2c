package dev.platform.karpenter.testing.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import org.junit.jupiter.api.Test;

/** The tests' validator adds the typed ObjectMeta check to the app's CRD validation. */
@NeedsUpstreamMirror
@KernelOnlyThroughSynthesized
class CrdValidatorTest {
    private static final CrdValidator V1 =
            UpstreamCharts.crdValidator(UpstreamCharts.V1.get(UpstreamCharts.V1.size() - 1));

    @Test
    void checksMetadataAsTypedObjectMetaAndTheRestThroughTheCrd() {
        ObjectNode nodeClass = (ObjectNode) HelmRender.parse("""
                        apiVersion: karpenter.k8s.aws/v1
                        kind: EC2NodeClass
                        metadata: {name: default, labelz: {a: b}}
                        spec:
                          role: KarpenterNodeRole-demo
                          amiSelectorTerms: [{alias: al2023@latest}]
                          subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                          securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
                          kubelett: {}
                        """).get(0);
        assertThat(V1.errors(nodeClass))
                .hasSize(2)
                .anySatisfy(e -> assertThat(e).contains("labelz"))
                .anySatisfy(e -> assertThat(e).startsWith("spec.kubelett: unknown field (did you mean \"kubelet\"?)"));
        ((ObjectNode) nodeClass.path("metadata")).remove("labelz");
        ((ObjectNode) nodeClass.path("spec")).remove("kubelett");
        V1.assertAccepted(nodeClass);
    }
}
