package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.InstanceType;
import dev.platform.karpenter.catalog.LabelRequirement;
import dev.platform.karpenter.catalog.NodeClassOffer;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Requirements no instance type could ever meet, whatever the catalogue holds: an In with no values, In and NotIn
 * leaving no value of a key, DoesNotExist beside In or Exists on the same key, Gt and Lt with no whole number
 * between (Karpenter compares these labels as integers), minValues above the values the requirements leave, and
 * requirements on the operating system or architecture that exclude every one the node class runs (Karpenter gives
 * the instance types of a node class only those: instancetype/types.go getOS, Windows amd64 only). Everything else a
 * catalogue decides is a warning: AWS adds types and Karpenter discovers them at run time.
 */
final class ImpossibleRequirements {
    private ImpossibleRequirements() {}

    /**
     * The first reason {@code requirements} admit no node at all, as a line naming the pool and requirements.
     *
     * @param minValuesRelaxed settings.minValuesPolicy BestEffort: Karpenter relaxes minValues, so only a requirement
     *     listing fewer values than its own minValues (which the API server refuses) can never work
     */
    static Optional<String> find(
            String pool, List<LabelRequirement> requirements, NodeClassOffer nodeClass, boolean minValuesRelaxed) {
        Map<String, List<LabelRequirement>> byKey = new LinkedHashMap<>();
        for (LabelRequirement requirement : requirements) {
            if (requirement.operator().equals("In") && requirement.values().isEmpty()) {
                return Optional.of(pool + ": requirement " + requirement.describe() + " (" + requirement.where()
                        + ") is In with no values: no node can ever meet it");
            }
            if (requirement.operator().equals("In")
                    && requirement.minValues().isPresent()
                    && requirement.minValues().get() > new LinkedHashSet<>(requirement.values()).size()) {
                return Optional.of(pool + ": requirement " + requirement.describe() + " (" + requirement.where()
                        + ") asks for " + requirement.minValues().get() + " values of " + requirement.key()
                        + " but lists " + new LinkedHashSet<>(requirement.values()).size()
                        + ": no node can ever meet it");
            }
            byKey.computeIfAbsent(requirement.key(), key -> new ArrayList<>()).add(requirement);
        }
        for (Map.Entry<String, List<LabelRequirement>> entry : byKey.entrySet()) {
            Optional<String> impossible = impossible(pool, entry.getKey(), entry.getValue(), minValuesRelaxed);
            if (impossible.isPresent()) {
                return impossible;
            }
        }
        for (LabelRequirement requirement : requirements) {
            boolean arch = requirement.key().equals(InstanceType.ARCH_LABEL);
            boolean os = requirement.key().equals(InstanceType.OS_LABEL);
            if (!arch && !os) {
                continue;
            }
            Set<String> offered = arch ? nodeClass.architectures() : Set.of(nodeClass.os());
            if (offered.stream().noneMatch(requirement::admits)) {
                return Optional.of(pool + " matches no instance type: requirement " + requirement.describe() + " ("
                        + requirement.where() + ") admits none of the " + (arch ? "architectures" : "systems")
                        + " its node class runs (" + nodeClass.os() + ", "
                        + String.join("/", new TreeSet<>(nodeClass.architectures())) + ")");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> impossible(
            String pool, String key, List<LabelRequirement> onKey, boolean minValuesRelaxed) {
        Set<String> in = null;
        Set<String> notIn = new LinkedHashSet<>();
        BigInteger above = null; // values must be greater than this
        BigInteger below = null; // values must be less than this
        LabelRequirement aboveBy = null;
        LabelRequirement belowBy = null;
        LabelRequirement doesNotExist = null;
        LabelRequirement present = null;
        int minValues = 0;
        LabelRequirement minValuesBy = null;
        for (LabelRequirement requirement : onKey) {
            switch (requirement.operator()) {
                case "In" -> {
                    Set<String> values = new LinkedHashSet<>(requirement.values());
                    if (in == null) {
                        in = values;
                    } else {
                        in.retainAll(values);
                    }
                    present = requirement;
                }
                case "NotIn" -> notIn.addAll(requirement.values());
                case "Exists" -> present = requirement;
                case "DoesNotExist" -> doesNotExist = requirement;
                case "Gt", "Gte", "Lt", "Lte" -> {
                    present = requirement;
                    Optional<BigInteger> bound = integer(requirement);
                    if (bound.isEmpty()) {
                        continue;
                    }
                    switch (requirement.operator()) {
                        case "Gt", "Gte" -> {
                            BigInteger lower = requirement.operator().equals("Gt")
                                    ? bound.get()
                                    : bound.get().subtract(BigInteger.ONE);
                            if (above == null || lower.compareTo(above) > 0) {
                                above = lower;
                                aboveBy = requirement;
                            }
                        }
                        default -> {
                            BigInteger upper = requirement.operator().equals("Lt")
                                    ? bound.get()
                                    : bound.get().add(BigInteger.ONE);
                            if (below == null || upper.compareTo(below) < 0) {
                                below = upper;
                                belowBy = requirement;
                            }
                        }
                    }
                }
                default -> {}
            }
            if (requirement.minValues().isPresent() && requirement.minValues().get() > minValues) {
                minValues = requirement.minValues().get();
                minValuesBy = requirement;
            }
        }
        String all = String.join(
                " and ",
                onKey.stream().map(r -> r.describe() + " (" + r.where() + ")").toList());
        if (doesNotExist != null && present != null) {
            return Optional.of(pool + ": requirements " + all + " ask " + key + " to exist and not to: no node can"
                    + " ever meet them");
        }
        if (above != null && below != null && below.subtract(above).compareTo(BigInteger.ONE) <= 0) {
            return Optional.of(pool + ": requirements " + aboveBy.describe() + " (" + aboveBy.where() + ") and "
                    + belowBy.describe() + " (" + belowBy.where() + ") leave no whole number for " + key
                    + ": no node can ever meet them");
        }
        if (in != null) {
            Set<String> left = new LinkedHashSet<>(in);
            left.removeAll(notIn);
            final BigInteger lower = above;
            final BigInteger upper = below;
            left.removeIf(value -> !within(value, lower, upper));
            if (left.isEmpty()) {
                return Optional.of(
                        pool + ": requirements " + all + " leave no value of " + key + ": no node can ever meet them");
            }
            if (minValues > left.size() && !minValuesRelaxed) {
                return Optional.of(pool + ": requirement " + minValuesBy.describe() + " (" + minValuesBy.where()
                        + ") asks for " + minValues + " values of " + key + " but the requirements allow only "
                        + left.size() + " " + left + ": no node can ever meet it");
            }
        }
        return Optional.empty();
    }

    private static boolean within(String value, BigInteger above, BigInteger below) {
        if (above == null && below == null) {
            return true;
        }
        try {
            BigInteger number = new BigInteger(value);
            return (above == null || number.compareTo(above) > 0) && (below == null || number.compareTo(below) < 0);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static Optional<BigInteger> integer(LabelRequirement requirement) {
        if (requirement.values().size() != 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(new BigInteger(requirement.values().get(0)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
