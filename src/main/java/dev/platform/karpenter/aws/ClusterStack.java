package dev.platform.karpenter.aws;

import com.hashicorp.cdktf.TerraformStack;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.constructs.Construct;

/**
 * One concern's stack of one cluster. Its outputs and local values are declared here and written as one override of
 * the stack each, just before synthesis, rather than as a {@code TerraformOutput} or {@code TerraformLocal} apiece:
 * each of those is a round trip to the jsii kernel, and a cluster had 20 of them, plus an override per precondition
 * (docs/contributing/performance.md). The JSON is what those constructs write, the outputs' entries in the stack's
 * {@code "//"} metadata included: the cdktf CLI finds the outputs there.
 */
public abstract class ClusterStack extends TerraformStack {
    private final Map<String, Map<String, ?>> outputs = new LinkedHashMap<>();
    private final Map<String, Object> locals = new LinkedHashMap<>();
    /** The stack's name, kept here: reading it back from the construct would be two more round trips. */
    private final String stackName;

    protected ClusterStack(Construct scope, String name) {
        super(scope, name);
        this.stackName = name;
    }

    /** Declares output {@code name} of this stack. */
    public void output(String name, String value, String description) {
        declare(outputs, name, Map.of("value", value, "description", description));
    }

    /**
     * Declares output {@code name}, whose precondition fails the plan with {@code errorMessage} unless
     * {@code condition} holds (both Terraform templates).
     */
    public void output(String name, String value, String description, String condition, String errorMessage) {
        declare(
                outputs,
                name,
                Map.of(
                        "value", value,
                        "description", description,
                        "precondition", Map.of("condition", condition, "error_message", errorMessage)));
    }

    /**
     * Declares local value {@code name} of this stack.
     *
     * @return a reference to it, {@code ${local.<name>}}, for this stack's elements (another stack cannot read it)
     */
    public String local(String name, Object value) {
        declare(locals, name, value);
        return "${local." + name + "}";
    }

    private <T> void declare(Map<String, T> declared, String key, T value) {
        if (declared.putIfAbsent(key, value) != null) {
            throw new IllegalStateException(stackName + " declares " + key + " twice");
        }
    }

    /**
     * The references to other stacks' attributes this stack holds, as cdktf tokens: see {@link CrossStackReferences}.
     */
    protected abstract List<String> readFromOtherStacks();

    /**
     * Writes the declared outputs and locals, then resolves the references to other stacks (cdktf calls this once,
     * before it synthesizes the stacks).
     */
    @Override
    public final void prepareStack() {
        if (!outputs.isEmpty()) {
            addOverride("output", outputs);
            Map<String, String> names = new LinkedHashMap<>();
            outputs.keySet().forEach(output -> names.put(output, output));
            addOverride("//", Map.of("outputs", Map.of(stackName, names)));
        }
        if (!locals.isEmpty()) {
            addOverride("locals", locals);
        }
        CrossStackReferences.prepare(this, readFromOtherStacks());
    }
}
