package dev.platform.karpenter.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.AppConfig;
import com.hashicorp.cdktf.Fn;
import com.hashicorp.cdktf.TerraformLocal;
import com.hashicorp.cdktf.TerraformOutput;
import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.ScratchDirectories;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A stack's outputs and locals, declared on {@link ClusterStack} and written as overrides, come out as cdktf's own
 * {@code TerraformOutput} and {@code TerraformLocal} write them, beside the outputs cdktf adds for other stacks.
 */
class ClusterStackTest {
    private static final Map<String, String> TABLE = Map.of("0.30/early/v1alpha5", "refused: next is 0.31");
    private static final String CONDITION = "${lookup(local.table, \"0.30/early/v1alpha5\", \"\") == \"\"}";
    private static final String MESSAGE = "refused: ${lookup(local.table, \"0.30/early/v1alpha5\", \"\")}";

    /** A cluster stack with an output that another stack reads, so that cdktf adds an output of its own. */
    private static final class Declared extends ClusterStack {
        Declared(App app) {
            super(app, "declared");
        }

        @Override
        protected List<String> readFromOtherStacks() {
            return List.of();
        }
    }

    private static Path synthesize() {
        Path dir = ScratchDirectories.create("cluster-stack-");
        App app = new App(AppConfig.builder().outdir(dir.toString()).build());

        Declared declared = new Declared(app);
        String table = declared.local("table", TABLE);
        declared.local("stamp", Fn.timestamp());
        declared.output("plain", "1.2.3", "A literal");
        declared.output("reference", table, "A local, by reference");
        declared.output("guarded", "1.2.3", "With a precondition", CONDITION, MESSAGE);

        TerraformStack constructed = new TerraformStack(app, "constructed");
        TerraformLocal tableLocal = new TerraformLocal(constructed, "table", TABLE);
        new TerraformLocal(constructed, "stamp", Fn.timestamp());
        TerraformOutput.Builder.create(constructed, "plain")
                .value("1.2.3")
                .description("A literal")
                .build();
        TerraformOutput.Builder.create(constructed, "reference")
                .value(tableLocal.getAsString())
                .description("A local, by reference")
                .build();
        TerraformOutput.Builder.create(constructed, "guarded")
                .value("1.2.3")
                .description("With a precondition")
                .build()
                .addOverride("precondition", Map.of("condition", CONDITION, "error_message", MESSAGE));
        app.synth();
        return dir;
    }

    private static JsonNode stack(Path dir, String name) {
        return Json.read(dir.resolve("stacks").resolve(name).resolve("cdk.tf.json"));
    }

    @Test
    void outputsAndLocalsAreWhatCdktfsConstructsWrite() {
        Path dir = synthesize();
        JsonNode declared = stack(dir, "declared");
        JsonNode constructed = stack(dir, "constructed");
        assertThat(declared.get("output")).isEqualTo(constructed.get("output"));
        assertThat(declared.get("locals")).isEqualTo(constructed.get("locals"));
        assertThat(declared.at("/output/reference/value").asText()).isEqualTo("${local.table}");
        assertThat(declared.at("/locals/stamp").asText()).isEqualTo("${timestamp()}");
        // Where the cdktf CLI finds the outputs (cdktf output, deploy --outputs-file).
        assertThat(declared.at("/~1~1/outputs/declared")).isEqualTo(constructed.at("/~1~1/outputs/constructed"));
        assertThat(declared.at("/~1~1/outputs/declared").size()).isEqualTo(3);
    }

    @Test
    void aNameDeclaredTwiceIsRefused() {
        App app = new App(AppConfig.builder()
                .outdir(ScratchDirectories.create("cluster-stack-twice-").toString())
                .build());
        Declared declared = new Declared(app);
        declared.output("plain", "1", "first");
        assertThatThrownBy(() -> declared.output("plain", "2", "second"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("declared declares plain twice");
    }
}
