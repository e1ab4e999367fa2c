package dev.platform.karpenter.nodepools;

import dev.platform.karpenter.aws.CrossStackReferences;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.TerraformDocument;
import dev.platform.karpenter.nodepools.manifest.KubernetesObject;
import dev.platform.karpenter.nodepools.manifest.ManifestYaml;
import dev.platform.karpenter.nodepools.manifest.NodePoolManifests;
import dev.platform.karpenter.nodepools.manifest.RenderedPools;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The text the node-pools stack applies: the release's values, the manifests output and the plain file. Made from
 * the configuration and the node role's name alone, touching no cdktf object, so the app makes it on another thread
 * while cdktf builds the cluster's other stacks.
 *
 * @param helmValues the Helm values holding the objects and the uninstall hook, as a Terraform string
 * @param manifestsYaml the objects as YAML, as a Terraform string
 * @param readFromOtherStacks the IAM stack's reference to the node role, where the documents hold it
 */
public record PoolDocuments(
        String helmValues, String manifestsYaml, PlainManifestFile plainFile, List<String> readFromOtherStacks) {
    /**
     * @param nodeRoleName the role's name, or the IAM stack's reference to it (then the plain file holds
     *     {@link NodePoolsStack#NODE_ROLE_PLACEHOLDER} instead)
     */
    public static PoolDocuments render(ClusterConfig config, String nodeRoleName) {
        NodePoolManifests manifests = NodePoolManifests.forApis(config.apis());
        TerraformDocument document = new TerraformDocument();
        String roleInDocument = document.referenceOrText(nodeRoleName);
        boolean roleIsReference = !roleInDocument.equals(nodeRoleName);
        List<KubernetesObject<Map<String, Object>>> objects =
                RenderedPools.of(config, roleInDocument).objects();
        List<Object> released = Stream.concat(
                        objects.stream(),
                        manifests
                                .uninstallHook(
                                        config.poolsAndClasses(),
                                        config.namespace(),
                                        NodePoolsStack.RELEASE_TIMEOUT_SECONDS)
                                .stream())
                .toList();
        String plainRole = roleIsReference ? NodePoolsStack.NODE_ROLE_PLACEHOLDER : nodeRoleName;
        String helmValues = ManifestYaml.helmValues(released, document);
        String manifestsYaml = ManifestYaml.documents(objects, document);
        return new PoolDocuments(
                helmValues,
                manifestsYaml,
                new PlainManifestFile(
                        config.stackName(NodePoolsStack.CONCERN),
                        manifests.plainFileName(),
                        ManifestYaml.documents(
                                RenderedPools.of(config, plainRole).objects())),
                roleIsReference
                        ? CrossStackReferences.heldIn(List.of(nodeRoleName), helmValues, manifestsYaml)
                        : List.of());
    }
}
