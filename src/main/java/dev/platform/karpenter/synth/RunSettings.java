package dev.platform.karpenter.synth;

import dev.platform.karpenter.config.ConfigException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * What a synthesis takes from its environment, checked before anything starts: where the output goes, and that the
 * tools the kernel needs are there. Every problem is one line naming the variable or the tool.
 *
 * <p>Two behaviours of the cdktf CLI are dealt with here. It hands the app its output directory as CDKTF_OUTDIR,
 * which cdktf's App, in the kernel, prefers over the directory it is given: synthesis into a staging directory needs
 * it gone, so libexec/app renames it KARPENTER_OUTDIR and the app refuses to run with CDKTF_OUTDIR still set. And after
 * the app, the CLI removes the stack directories it listed before that no longer have a stack, failing on one that
 * is already gone ({@link #underCdktfCli}).
 */
record RunSettings(OutputDirectory output, String stateDirFromStack, boolean underCdktfCli) {
    static final String OUTDIR_VARIABLE = "KARPENTER_OUTDIR";
    static final String CDKTF_OUTDIR_VARIABLE = "CDKTF_OUTDIR";
    /** Set by the cdktf CLI for the app command it runs (and by nothing else). */
    static final String CDKTF_CLI_MARKER = "CDKTF_CONTINUE_SYNTH_ON_ERROR_ANNOTATIONS";
    /** The jsii-runtime version the build pinned, written by Maven into this resource. */
    private static final String PINNED_RESOURCE = "/dev/platform/karpenter/synth/pinned.properties";

    private static final String JSII_RUNTIME_RESOURCE =
            "/META-INF/maven/software.amazon.jsii/jsii-runtime/pom.properties";

    static RunSettings from(Path projectDir, Map<String, String> env) {
        if (env.containsKey(CDKTF_OUTDIR_VARIABLE)) {
            throw new BadEnvironment("environment variable " + CDKTF_OUTDIR_VARIABLE
                    + " is set: the app must be started"
                    + " by libexec/app (cdktf.json's app), which passes the directory on as " + OUTDIR_VARIABLE);
        }
        String named = env.getOrDefault(OUTDIR_VARIABLE, "");
        Path outdir;
        try {
            outdir = projectDir
                    .resolve(named.isBlank() ? "cdktf.out" : named)
                    .toAbsolutePath()
                    .normalize();
        } catch (InvalidPathException e) {
            throw new BadEnvironment("environment variable " + OUTDIR_VARIABLE + " " + ConfigException.quoteWhole(named)
                    + " is not a path this system's locale can encode (" + System.getProperty("sun.jnu.encoding")
                    + "); use a UTF-8 locale (e.g. LC_ALL=C.UTF-8) or an ASCII path");
        }
        requireNode(env.getOrDefault("PATH", System.getenv("PATH")));
        requirePinnedJsiiRuntime();
        // Terraform runs in <outdir>/stacks/<stack>; local state paths are relative to that, so the project moves.
        String stateDir = outdir.resolve("stacks")
                .resolve("any-stack")
                .relativize(projectDir)
                .toString();
        return new RunSettings(OutputDirectory.at(outdir), stateDir, env.containsKey(CDKTF_CLI_MARKER));
    }

    /** The kernel is a Node.js program; without node, jsii would fail with a trace. */
    static void requireNode(String path) {
        for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
            if (!dir.isEmpty()
                    && Files.isExecutable(Path.of(dir, "node"))
                    && !Files.isDirectory(Path.of(dir, "node"))) {
                return;
            }
        }
        throw new BadEnvironment("Node.js not found: no node on PATH; the cdktf kernel runs on Node.js 20 or later,"
                + " install it or add it to PATH");
    }

    /**
     * libexec/jsii-kernel.js relies on internals of the pinned jsii runtime (see there); another version on the class
     * path, e.g. from a dependency change, may break it in ways no error names. It stays while it saves a quarter of a
     * 50-cluster synth (docs/contributing/performance.md).
     */
    static void requirePinnedJsiiRuntime() {
        String pinned = version(PINNED_RESOURCE, "jsii.version");
        String found = version(JSII_RUNTIME_RESOURCE, "version");
        if (pinned == null || !pinned.equals(found)) {
            throw new BadEnvironment("the jsii runtime on the class path is " + (found == null ? "unknown" : found)
                    + ", the build pinned " + pinned + "; rebuild with mvn package");
        }
    }

    private static String version(String resource, String key) {
        try (InputStream in = RunSettings.class.getResourceAsStream(resource)) {
            if (in == null) {
                return null;
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty(key);
        } catch (IOException e) {
            return null;
        }
    }
}
