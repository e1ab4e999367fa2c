package dev.platform.karpenter;

import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.AppConfig;
import dev.platform.karpenter.aws.ClusterStack;
import dev.platform.karpenter.backend.StateBackends;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.controller.ControllerStack;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.interruption.InterruptionStack;
import dev.platform.karpenter.monitoring.MonitoringFiles;
import dev.platform.karpenter.nodepools.NodePoolsStack;
import dev.platform.karpenter.nodepools.PlainManifestFile;
import dev.platform.karpenter.nodepools.PoolDocuments;
import dev.platform.karpenter.upgrade.StepGuard;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/** Wiring only: one cdktf App, four stacks per cluster, each with its own state. */
public final class KarpenterApp {
    private KarpenterApp() {}

    /** The cdktf App writing into {@code synthDir}. Creating it starts the jsii kernel, a Node.js process. */
    public static App newApp(Path synthDir) {
        return new App(AppConfig.builder().outdir(synthDir.toString()).build());
    }

    /**
     * Builds and synthesizes the app into {@code synthDir}.
     *
     * @param stateDirFromStack the project directory relative to a stack's working directory in the final output
     */
    public static void synthesize(List<ClusterConfig> clusters, Path synthDir, String stateDirFromStack)
            throws IOException {
        // CompletableFuture's own default: a thread per task where the common pool has a single thread.
        synthesize(
                newApp(synthDir),
                synthDir,
                clusters,
                stateDirFromStack,
                new CompletableFuture<Void>().defaultExecutor());
    }

    /**
     * Adds the four stacks of every cluster to {@code app} and synthesizes it into {@code synthDir} (the App's
     * outdir), then writes the plain manifest files next to the node-pools stacks and the monitoring files next to the
     * controller stacks. What touches no cdktf object (the
     * node pools' documents, the controller's values) is made on {@code beside} meanwhile.
     */
    public static void synthesize(
            App app, Path synthDir, List<ClusterConfig> clusters, String stateDirFromStack, Executor beside)
            throws IOException {
        List<PlainManifestFile> plainFiles = new ArrayList<>();
        List<MonitoringFiles> monitoringFiles = new ArrayList<>();
        for (ClusterConfig config : clusters) {
            IamStack iam = new IamStack(app, config);
            String nodeRoleName = iam.nodeRoleName();
            // The node pools' documents touch no cdktf object: made meanwhile, while the next two stacks are built.
            CompletableFuture<PoolDocuments> poolDocuments =
                    CompletableFuture.supplyAsync(() -> PoolDocuments.render(config, nodeRoleName), beside);
            InterruptionStack interruption = new InterruptionStack(app, config);
            ControllerStack controller = new ControllerStack(app, config, iam, interruption, beside);
            NodePoolsStack nodePools = new NodePoolsStack(app, config, controller, joined(poolDocuments));
            plainFiles.add(nodePools.plainManifestFile());
            monitoringFiles.add(MonitoringFiles.of(config, config.stackName(ControllerStack.CONCERN)));
            List<Map.Entry<String, ClusterStack>> byConcern = List.of(
                    Map.entry(IamStack.CONCERN, iam),
                    Map.entry(InterruptionStack.CONCERN, interruption),
                    Map.entry(ControllerStack.CONCERN, controller),
                    Map.entry(NodePoolsStack.CONCERN, nodePools));
            Optional<StepGuard> guard = StepGuard.of(config, stateDirFromStack);
            for (Map.Entry<String, ClusterStack> stack : byConcern) {
                StateBackends.configure(
                        stack.getValue(), config.stackName(stack.getKey()), config.backend(), stateDirFromStack);
                guard.ifPresent(g -> g.attach(stack.getValue()));
            }
            StepGuard.record(config, iam, nodePools);
        }
        app.synth();
        for (PlainManifestFile file : plainFiles) {
            file.writeInto(synthDir);
        }
        for (MonitoringFiles files : monitoringFiles) {
            files.writeInto(synthDir);
        }
    }

    /** The future's value, with what failed in it unwrapped. */
    private static <T> T joined(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }
}
