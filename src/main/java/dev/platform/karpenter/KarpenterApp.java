package dev.platform.karpenter;

import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.AppConfig;
import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.backend.StateBackends;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.controller.ControllerStack;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.interruption.InterruptionStack;
import dev.platform.karpenter.nodepools.NodePoolsStack;
import java.nio.file.Path;
import java.util.List;

/** Wiring only: one cdktf App, four stacks per cluster, each with its own state. */
public final class KarpenterApp {
    private KarpenterApp() {
    }

    /**
     * Builds and synthesizes the app into {@code synthDir}.
     *
     * @param stateDirFromStack the project directory relative to a stack's working directory in the final output
     */
    public static void synthesize(List<ClusterConfig> clusters, Path synthDir, String stateDirFromStack) {
        App app = new App(AppConfig.builder().outdir(synthDir.toString()).build());
        for (ClusterConfig config : clusters) {
            IamStack iam = new IamStack(app, config);
            InterruptionStack interruption = new InterruptionStack(app, config);
            ControllerStack controller = new ControllerStack(app, config, iam, interruption);
            NodePoolsStack nodePools = new NodePoolsStack(app, config, iam, controller);
            for (TerraformStack stack : List.of(iam, interruption, controller, nodePools)) {
                StateBackends.configure(stack, stack.toString(), config.backend(), stateDirFromStack);
            }
        }
        app.synth();
    }
}
