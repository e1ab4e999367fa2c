package dev.platform.karpenter.adopt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How an existing Kubernetes object becomes a Helm release's without being deleted. Helm 3.17's --take-ownership
 * would do it at install, but the stacks install through the hashicorp/helm provider pinned in bindings (2.12.1,
 * Helm 3.13), which has no such option. Every Helm 3 adopts an object that carries its ownership label and
 * annotations instead, so a kubectl step sets them before the release is applied.
 */
final class HelmOwnership {
    /** The resource (plural.group) of each pool and node class kind, so kubectl never guesses another group. */
    private static final Map<String, String> RESOURCES = Map.of(
            "Provisioner", "provisioners.karpenter.sh",
            "AWSNodeTemplate", "awsnodetemplates.karpenter.k8s.aws",
            "NodePool", "nodepools.karpenter.sh",
            "EC2NodeClass", "ec2nodeclasses.karpenter.k8s.aws");

    private HelmOwnership() {}

    /** The kubectl commands that hand each "Kind/name" object (cluster-scoped) to {@code namespace/release}. */
    static List<String> commands(List<String> objects, String release, String namespace) {
        List<String> commands = new ArrayList<>();
        for (String object : objects) {
            String kind = object.substring(0, object.indexOf('/'));
            String name = object.substring(object.indexOf('/') + 1);
            String target = RESOURCES.get(kind) + "/" + name;
            commands.add("kubectl label " + target + " app.kubernetes.io/managed-by=Helm --overwrite");
            commands.add("kubectl annotate " + target + " meta.helm.sh/release-name=" + release
                    + " meta.helm.sh/release-namespace=" + namespace + " --overwrite");
        }
        return commands;
    }

    /** One shell line that hands every Karpenter CRD to the karpenter-crd release in {@code namespace}. */
    static String crdCommand(String namespace) {
        return "for crd in $(kubectl get crd -o name | grep -E '\\.karpenter\\.(sh|k8s\\.aws)$'); do kubectl label"
                + " $crd app.kubernetes.io/managed-by=Helm --overwrite; kubectl annotate $crd"
                + " meta.helm.sh/release-name=karpenter-crd meta.helm.sh/release-namespace=" + namespace
                + " --overwrite; done";
    }
}
