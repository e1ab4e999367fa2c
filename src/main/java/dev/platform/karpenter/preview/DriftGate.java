package dev.platform.karpenter.preview;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.release.ValuePath;
import dev.platform.karpenter.schema.ChartValuesSchema;
import java.util.List;
import java.util.Optional;

/**
 * The drift feature gate of a release whose chart has one (settings.featureGates.driftEnabled on 0.30 and 0.31,
 * settings.featureGates.drift from 0.32 to 0.37; from 1.0 drift is always on), as the controller gets it:
 * controller_values where it sets the gate, else the chart's default (off up to 0.32, on from 0.33).
 *
 * @param path         the chart value
 * @param on           whether drift runs
 * @param chartDefault the chart's default, for messages
 */
record DriftGate(ValuePath path, boolean on, String chartDefault, String release) {
    private static final List<ValuePath> GATES = List.of(
            ValuePath.of("settings", "featureGates", "drift"),
            ValuePath.of("settings", "featureGates", "driftEnabled"));

    static Optional<DriftGate> of(ClusterConfig config) {
        ChartValuesSchema schema = ChartValuesSchema.of(config.release());
        for (ChartValuesSchema.Value value : schema.values()) {
            for (ValuePath gate : GATES) {
                if (!value.path().equals(gate.segments())) {
                    continue;
                }
                Object written = gate.valueIn(config.controller().chartValues());
                String effective = written != null ? String.valueOf(written) : value.chartDefault();
                return Optional.of(new DriftGate(
                        gate,
                        "true".equals(effective),
                        value.chartDefault(),
                        config.release().toString()));
            }
        }
        return Optional.empty();
    }

    String describe() {
        return "controller_values " + path + " is off"
                + ("false".equals(chartDefault) ? " (the chart's default at " + release + ")" : "")
                + ": Karpenter replaces no drifted node, so node class and pool changes reach"
                + " only new nodes (set it to true to roll them out)";
    }
}
