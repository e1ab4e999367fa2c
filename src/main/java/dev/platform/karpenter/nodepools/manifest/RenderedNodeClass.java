package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.AmiFamily;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.SettingsCatalogue;
import java.util.Map;

/**
 * A node class as it is applied (AWSNodeTemplate or EC2NodeClass): its typed settings and spec merged into one
 * object. What the project derives from a node class (its AMI family, hence volumes, guards and operating system) is
 * read from {@link #object()}.
 *
 * @param settings where it was written (its name, its place for messages)
 * @param object   the final object
 */
public record RenderedNodeClass(NodeClassSettings settings, KubernetesObject<Map<String, Object>> object) {

    public String name() {
        return settings.name();
    }

    /**
     * The AMI family the object names: its amiFamily, else the family of its amiSelectorTerms alias (v1). An object
     * naming neither (refused by its CRD) counts as the typed family.
     */
    public AmiFamily family() {
        return SpecRules.familyIn(object.spec(), "")
                .map(SpecRules.WrittenFamily::family)
                .orElse(settings.amiFamily());
    }

    /**
     * The family of the AMIs its nodes boot: that of its amiSelectorTerms alias where it has one (with amiFamily
     * Custom too: the alias's AMIs, the class's userData), else {@link #family()}. The AMIs EKS publishes, and so
     * the Kubernetes versions they run on, follow this one.
     */
    public AmiFamily imageFamily() {
        return SpecRules.aliasIn(object.spec(), "")
                .map(SpecRules.WrittenFamily::family)
                .orElseGet(this::family);
    }

    /**
     * Where its image family is written, for messages: the spec's field ("node_class_spec.amiSelectorTerms[0].alias =
     * \"al2@latest\"", "node_class_spec.amiFamily = \"AL2\"") or the typed setting ("ami_family = \"AL2\"").
     */
    public String imageFamilySource() {
        return SpecRules.aliasIn(settings.spec(), settings.specSetting())
                .or(() -> SpecRules.familyIn(settings.spec(), settings.specSetting()))
                .map(written -> written.field() + " = " + ConfigException.quote(written.value()))
                .orElseGet(() -> settings.written(SettingsCatalogue.AMI_FAMILY)
                                .orElse(SettingsCatalogue.AMI_FAMILY.key())
                        + " = " + ConfigException.quote(settings.amiFamily().setting()));
    }

    /** The operating system Karpenter gives its nodes' instance types: its family's (Custom: linux). */
    public AmiFamily.Os os() {
        return family().os();
    }
}
