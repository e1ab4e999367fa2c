package dev.platform.karpenter.nodepools;

import com.hashicorp.cdktf.AssetType;
import com.hashicorp.cdktf.TerraformAsset;
import dev.platform.karpenter.nodepools.manifest.ManifestYaml;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import software.constructs.Construct;

/**
 * A two-file Helm chart that writes out whatever objects its values list under {@code manifests}, published as a
 * cdktf asset (copied into the stack's output, referenced by a relative path). The objects travel in the release's
 * values rather than in template files because the node role is a Terraform reference to another stack, which only
 * Terraform resolves; a plan then also shows every manifest change as a change of the values.
 */
final class ManifestChart extends Construct {
    static final String NAME = "karpenter-nodepools";
    static final String VERSION = "1.0.0";
    /** Each listed object as its own document; toYaml keeps the types the values carry. */
    static final String TEMPLATE = """
            {{- range .Values.manifests }}
            ---
            {{ toYaml . }}
            {{- end }}
            """;

    record ChartMetadata(String apiVersion, String name, String description, String type, String version) {}

    /** The chart's files are the same for every cluster: written once per process, copied into each stack. */
    private static Path chartDir;

    private final TerraformAsset asset;

    ManifestChart(Construct scope, String id) {
        super(scope, id);
        asset = TerraformAsset.Builder.create(this, "chart")
                .path(writeChart().toString())
                .type(AssetType.DIRECTORY)
                .build();
    }

    /** The chart's path relative to the stack's working directory. */
    String path() {
        return asset.getPath();
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            // a temporary directory: the system cleans it up eventually
        }
    }

    private static synchronized Path writeChart() {
        if (chartDir != null && Files.isDirectory(chartDir)) {
            return chartDir;
        }
        try {
            Path dir = Files.createTempDirectory("karpenter-nodepools-chart-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
            Files.writeString(
                    dir.resolve("Chart.yaml"),
                    ManifestYaml.document(new ChartMetadata(
                            "v2",
                            NAME,
                            "Karpenter pools and node class of this cluster, rendered by the karpenter-cdktf app",
                            "application",
                            VERSION)));
            Files.createDirectories(dir.resolve("templates"));
            Files.writeString(dir.resolve("templates").resolve("manifests.yaml"), TEMPLATE);
            chartDir = dir;
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
