package dev.platform.karpenter.nodepools.manifest;

import static dev.platform.karpenter.config.SettingsCatalogue.AMI_FAMILY;
import static dev.platform.karpenter.config.SettingsCatalogue.AMI_VERSION;
import static dev.platform.karpenter.config.SettingsCatalogue.ARCHITECTURES;
import static dev.platform.karpenter.config.SettingsCatalogue.CAPACITY_TYPES;
import static dev.platform.karpenter.config.SettingsCatalogue.CPU_LIMIT;
import static dev.platform.karpenter.config.SettingsCatalogue.INSTANCE_CATEGORIES;
import static dev.platform.karpenter.config.SettingsCatalogue.INSTANCE_GENERATION_MIN;
import static dev.platform.karpenter.config.SettingsCatalogue.MEMORY_LIMIT;
import static dev.platform.karpenter.config.SettingsCatalogue.NODE_REQUIREMENTS;

import dev.platform.karpenter.config.AmiFamily;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.config.PoolsAndNodeClasses;
import dev.platform.karpenter.config.Setting;
import dev.platform.karpenter.release.ValuePath;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The one place where a pool's or node class's typed settings meet its spec (docs/guides/upstream-fields.md, "Typed settings and a spec").
 * The object is built once: the typed settings as these rules let them, then the spec merged over them; whatever
 * the project derives is then read from that object.
 *
 * <ol>
 *   <li>A typed default steps aside where the spec makes it wrong:
 *       <ul>
 *         <li>a node class whose spec names an AMI family (an amiSelectorTerms alias, or amiFamily) takes that family
 *             and its volumes, not those of the default ami_family (Bottlerocket's 4Gi root would not boot AL2023);
 *         <li>a static pool (spec.replicas) gets no cpu_limit or memory_limit: it takes limits.nodes only;
 *         <li>a pool's kubernetes.io/os requirement is the operating system of its node class (windows for the
 *             Windows families), not linux.
 *       </ul>
 *   <li>A typed setting written for the object that contradicts a field its spec writes is refused, naming both:
 *       ami_family against the alias or amiFamily, ami_version against the alias's version, cpu_limit or
 *       memory_limit against replicas, and any pool setting whose value the spec overwrites or drops (a
 *       requirement missing from the spec's requirements, a label, taint, limit, disruption or expiry value the spec
 *       changes).
 *   <li>The object must make sense as a whole: a Custom node class selects its AMIs, and a pool admits the
 *       operating system of its node class (a Windows class behind a linux-only pool is refused, and the reverse).
 * </ol>
 */
final class SpecRules {
    private SpecRules() {}

    /**
     * An AMI family as a spec writes it.
     *
     * @param field its place: "node_classes[0].spec.amiSelectorTerms[0].alias"
     * @param value as written: "al2023@latest", "Custom"
     */
    record WrittenFamily(AmiFamily family, String field, String value) {}

    /** Rule 1 (family) and rule 2 (ami_family, ami_version): the typed settings the node class's object starts from. */
    static NodeClassSettings typedNodeClass(NodeClassSettings nodeClass) {
        Optional<WrittenFamily> written = familyIn(nodeClass.spec(), nodeClass.specSetting());
        nodeClass.written(AMI_VERSION).ifPresent(typed -> requireVersionKept(nodeClass, typed, written));
        if (written.isEmpty()) {
            return nodeClass;
        }
        WrittenFamily spec = written.get();
        if (spec.family() != nodeClass.amiFamily()) {
            nodeClass.written(AMI_FAMILY).ifPresent(typed -> {
                throw contradiction(typed, nodeClass.amiFamily().setting(), spec.field(), spec.value());
            });
        }
        return spec.family() == nodeClass.amiFamily()
                ? nodeClass
                : nodeClass.withFamily(spec.family(), PoolsAndNodeClasses.LATEST_AMI);
    }

    /**
     * Rule 2 for ami_version: the alias of the object carries the version written for the class. A spec alias
     * replaces the typed one (with amiFamily Custom too); amiSelectorTerms without an alias leave the version nothing
     * to name; an amiFamily of another family makes the alias that family's, at "latest".
     */
    private static void requireVersionKept(NodeClassSettings nodeClass, String typed, Optional<WrittenFamily> family) {
        String version = nodeClass.amiVersion();
        Optional<WrittenFamily> alias = aliasIn(nodeClass.spec(), nodeClass.specSetting());
        if (alias.isPresent()) {
            String value = alias.get().value();
            if (!version.equals(value.substring(value.indexOf('@') + 1))) {
                throw contradiction(typed, version, alias.get().field(), value);
            }
        } else if (nodeClass.spec().get("amiSelectorTerms") != null) {
            throw new ConfigException(typed + " = " + ConfigException.quote(version) + " names the version of an"
                    + " alias, but " + nodeClass.specSetting() + ".amiSelectorTerms selects AMIs without one: write it"
                    + " in one place (remove " + typed + ", or select the AMIs by alias)");
        } else if (family.isPresent()
                && family.get().family() != nodeClass.amiFamily()
                && !version.equals(PoolsAndNodeClasses.LATEST_AMI)) {
            AmiFamily spec = family.get().family();
            throw new ConfigException(typed + " = " + ConfigException.quote(version) + " is a release of "
                    + nodeClass.amiFamily().setting() + ", but " + family.get().field() + " = "
                    + ConfigException.quote(family.get().value())
                    + (spec.hasAlias()
                            ? " makes the alias " + ConfigException.quote(spec.alias(PoolsAndNodeClasses.LATEST_AMI))
                            : " takes no alias")
                    + ": write it in one place (remove " + typed + ", or write the alias with its version in "
                    + nodeClass.specSetting() + ".amiSelectorTerms)");
        }
    }

    /** Rule 1 (limits, operating system) and rule 2 (limits): the typed settings the pool's object starts from. */
    static TypedPool typedPool(PoolSettings pool, RenderedNodeClass nodeClass) {
        Object replicas = pool.spec().get("replicas");
        if (replicas != null) {
            pool.written(CPU_LIMIT).ifPresent(typed -> {
                throw contradiction(
                        typed, String.valueOf(pool.cpuLimit()), pool.specSetting() + ".replicas", replicas.toString());
            });
            pool.written(MEMORY_LIMIT).ifPresent(typed -> {
                throw contradiction(typed, pool.memoryLimit(), pool.specSetting() + ".replicas", replicas.toString());
            });
        }
        return new TypedPool(pool, nodeClass.os(), replicas == null);
    }

    /**
     * Rule 2 for the rest of a pool's typed settings: what a setting written for the pool put in its object is still
     * there once the spec is merged (a requirement, a label, a taint, a limit, the disruption and expiry values).
     */
    static void requireTypedKept(
            RenderedPool pool, Map<String, Object> typedSpec, Map<Setting<?>, List<String>> typedPaths) {
        PoolSettings settings = pool.settings();
        Map<String, Object> spec = pool.object().spec();
        if (at(settings.spec(), pool.requirementsPath()) != null) {
            String field = settings.specSetting() + "." + String.join(".", pool.requirementsPath());
            List<Map<String, Object>> written = pool.requirements();
            typedRequirements(settings)
                    .forEach((setting, requirements) -> settings.written(setting)
                            .filter(place -> !requirements.stream().allMatch(typed -> contains(written, typed)))
                            .ifPresent(place -> {
                                throw new ConfigException(place + " is not in " + field + ", which replaces the typed"
                                        + " requirements: write it in one place (remove " + place + ", or add "
                                        + requirements.get(0).key() + " "
                                        + requirements.get(0).operator() + " "
                                        + requirements.get(0).values() + " to the spec's requirements)");
                            }));
        }
        requireKept(settings::written, settings.specSetting(), typedSpec, spec, typedPaths);
    }

    /**
     * Rule 2 by path: what each setting written for the object ({@code written} says where) put at its path in the
     * typed spec is still in the merged spec.
     */
    static void requireKept(
            Function<Setting<?>, Optional<String>> written,
            String specSetting,
            Map<String, Object> typedSpec,
            Map<String, Object> spec,
            Map<Setting<?>, List<String>> typedPaths) {
        typedPaths.forEach((setting, path) -> {
            Object typed = at(typedSpec, path);
            Object merged = at(spec, path);
            if (typed != null && !kept(typed, merged)) {
                written.apply(setting).ifPresent(place -> {
                    String field = String.join(".", path);
                    throw new ConfigException(place + " (" + field + " = "
                            + ConfigException.quote(String.valueOf(typed))
                            + ") contradicts " + specSetting + "." + field + " = "
                            + ConfigException.quote(String.valueOf(merged)) + ": write it in one place (remove " + place
                            + " or the field)");
                });
            }
        });
    }

    /** The requirements each written requirement setting puts in the object. */
    private static Map<Setting<?>, List<Requirement>> typedRequirements(PoolSettings pool) {
        Map<Setting<?>, List<Requirement>> typed = new LinkedHashMap<>();
        typed.put(CAPACITY_TYPES, List.of(Requirement.in(Requirement.CAPACITY_TYPE, pool.capacityTypes())));
        typed.put(ARCHITECTURES, List.of(Requirement.in(Requirement.ARCH, pool.architectures())));
        typed.put(
                INSTANCE_CATEGORIES, List.of(Requirement.in(Requirement.INSTANCE_CATEGORY, pool.instanceCategories())));
        typed.put(
                INSTANCE_GENERATION_MIN,
                List.of(new Requirement(
                        Requirement.INSTANCE_GENERATION,
                        "Gt",
                        List.of(String.valueOf(pool.instanceGenerationMin() - 1)))));
        if (!pool.requirements().isEmpty()) {
            typed.put(
                    NODE_REQUIREMENTS,
                    pool.requirements().stream()
                            .map(r -> new Requirement(r.key(), r.operator(), r.values()))
                            .toList());
        }
        return typed;
    }

    /** Whether {@code requirements} holds {@code typed}: its key and operator, the same values in any order. */
    private static boolean contains(List<Map<String, Object>> requirements, Requirement typed) {
        return requirements.stream()
                .anyMatch(written -> typed.key().equals(written.get("key"))
                        && typed.operator().equals(written.get("operator"))
                        && new HashSet<>(typed.values()).equals(values(written.get("values"))));
    }

    private static Set<String> values(Object values) {
        Set<String> texts = new HashSet<>();
        if (values instanceof List<?> list) {
            list.forEach(value -> texts.add(String.valueOf(value)));
        }
        return texts;
    }

    /**
     * Whether the merged value keeps the typed one: a map keeps its entries, a list its items, a value stays the
     * same (numbers by value: 100 is 100 however the tfvars spelled it).
     */
    private static boolean kept(Object typed, Object merged) {
        if (typed instanceof Map<?, ?> typedMap) {
            return merged instanceof Map<?, ?> mergedMap
                    && typedMap.entrySet().stream()
                            .allMatch(entry -> kept(entry.getValue(), mergedMap.get(entry.getKey())));
        }
        if (typed instanceof List<?> typedList) {
            return merged instanceof List<?> mergedList
                    && typedList.stream().allMatch(item -> mergedList.stream().anyMatch(other -> kept(item, other)));
        }
        if (typed instanceof Number number && merged instanceof Number other) {
            return new BigDecimal(number.toString()).compareTo(new BigDecimal(other.toString())) == 0;
        }
        return typed.equals(merged);
    }

    /**
     * Rule 3: a Custom node class names the AMIs it boots, and none of Windows by alias: Karpenter gives the
     * instance types of a Custom class the linux system, which a Windows alias's AMIs never match, so such a class
     * launches no node.
     */
    static void requireAmiSelected(RenderedNodeClass nodeClass) {
        if (nodeClass.family() != AmiFamily.CUSTOM) {
            return;
        }
        Map<String, Object> spec = nodeClass.object().spec();
        NodeClassSettings settings = nodeClass.settings();
        String family = settings.written(AMI_FAMILY)
                .map(typed -> typed + " = \"Custom\"")
                .orElse(settings.specSetting() + ".amiFamily = \"Custom\"");
        if (spec.get("amiSelectorTerms") == null && spec.get("amiSelector") == null) {
            throw new ConfigException(family + " selects no AMI: write amiSelectorTerms (by id, name or tags) and"
                    + " userData in " + settings.specSetting());
        }
        aliasIn(settings.spec(), settings.specSetting())
                .filter(alias -> alias.family().os() == AmiFamily.Os.WINDOWS)
                .ifPresent(alias -> {
                    throw new ConfigException(family + " with " + alias.field() + " = "
                            + ConfigException.quote(alias.value()) + " launches no node: Karpenter gives a Custom"
                            + " class's instance types the linux system, which the alias's Windows AMIs do not match;"
                            + " remove amiFamily (the alias's family bootstraps its nodes), or select your own AMIs"
                            + " by id, name or tags with amiFamily = "
                            + ConfigException.quote(alias.family().setting()));
                });
    }

    /** Rule 3: the pool admits the operating system its node class runs. */
    static void requireAgreement(RenderedPool pool) {
        RenderedNodeClass nodeClass = pool.nodeClass();
        AmiFamily.Os os = nodeClass.os();
        if (!pool.allows(Requirement.OS, os.label())) {
            String where = at(pool.settings().spec(), pool.requirementsPath()) != null
                    ? pool.settings().specSetting() + "." + String.join(".", pool.requirementsPath())
                    : pool.settings().declaredIn().isEmpty()
                            ? "node_requirements"
                            : pool.settings().declaredIn() + ".node_requirements";
            throw new ConfigException(where + " admits no " + Requirement.OS + " " + ConfigException.quote(os.label())
                    + ", but the pool's node class " + ConfigException.quote(nodeClass.name()) + " runs "
                    + nodeClass.family().setting() + ": allow " + ConfigException.quote(os.label())
                    + " or name a node class of the system the pool allows");
        }
    }

    /**
     * The AMI family a node class spec names, as Karpenter reads it (EC2NodeClass.AMIFamily()): amiFamily where
     * written (Custom with an alias is Custom: the alias's AMI, bootstrapped by the class's own userData), else the
     * family of an amiSelectorTerms alias; empty where it names none, or one the project does not know (left for the
     * CRD check).
     */
    static Optional<WrittenFamily> familyIn(Map<String, Object> spec, String setting) {
        if (spec.get("amiFamily") instanceof String amiFamily) {
            String field = (setting.isEmpty() ? "" : setting + ".") + "amiFamily";
            return AmiFamily.ofSetting(amiFamily).map(family -> new WrittenFamily(family, field, amiFamily));
        }
        return aliasIn(spec, setting);
    }

    /** The family of the AMIs an amiSelectorTerms alias selects (v1), whatever amiFamily says; empty without one. */
    static Optional<WrittenFamily> aliasIn(Map<String, Object> spec, String setting) {
        if (spec.get("amiSelectorTerms") instanceof List<?> terms) {
            for (int i = 0; i < terms.size(); i++) {
                if (terms.get(i) instanceof Map<?, ?> term && term.get("alias") instanceof String alias) {
                    String field = (setting.isEmpty() ? "" : setting + ".") + "amiSelectorTerms[" + i + "].alias";
                    return AmiFamily.ofAlias(alias).map(family -> new WrittenFamily(family, field, alias));
                }
            }
        }
        return Optional.empty();
    }

    /** The value at {@code path} in a spec tree, null where there is none. */
    static Object at(Map<String, Object> tree, List<String> path) {
        return path.isEmpty() ? tree : new ValuePath(path).valueIn(tree);
    }

    private static ConfigException contradiction(String typed, String typedValue, String field, String fieldValue) {
        return new ConfigException(typed + " = " + ConfigException.quote(typedValue) + " contradicts " + field + " = "
                + ConfigException.quote(fieldValue) + ": write it in one place (remove " + typed + " or the field)");
    }
}
