package dev.platform.karpenter.config;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Finds the tfvars to read and turns them into validated configurations, one per cluster.
 *
 * <p>Source, first found wins: the file or directory named by KARPENTER_TFVARS; terraform.tfvars in the project;
 * terraform.tfvars.example. A directory holds one *.tfvars file per cluster, read in name order.
 *
 * <p>The state backend can also come from the environment (KARPENTER_STATE_BUCKET, KARPENTER_STATE_REGION,
 * KARPENTER_STATE_KEY_PREFIX), which then wins over the files: CI keeps the bucket in repository variables rather
 * than in committed tfvars.
 */
public final class ConfigLoader {
    public static final String ENV_VARIABLE = "KARPENTER_TFVARS";
    static final Map<String, String> BACKEND_ENV_OVERRIDES = Map.of(
            "KARPENTER_STATE_BUCKET", "state_bucket",
            "KARPENTER_STATE_REGION", "state_region",
            "KARPENTER_STATE_KEY_PREFIX", "state_key_prefix");

    private ConfigLoader() {}

    /** Which file or directory to read, and says so on {@code log}. */
    public static Path locate(Path projectDir, Map<String, String> env, PrintStream log) {
        String named = env.get(ENV_VARIABLE);
        Path source;
        String why;
        if (named != null && !named.isBlank()) {
            source = projectDir.resolve(named);
            why = "named by " + ENV_VARIABLE;
            if (!Files.exists(source)) {
                throw new ConfigException(ENV_VARIABLE + " names " + source + ", which does not exist");
            }
        } else if (Files.isRegularFile(projectDir.resolve("terraform.tfvars"))) {
            source = projectDir.resolve("terraform.tfvars");
            why = "the project's terraform.tfvars";
        } else {
            source = projectDir.resolve("terraform.tfvars.example");
            why = "no " + ENV_VARIABLE + " and no terraform.tfvars, so the example";
            if (!Files.isRegularFile(source)) {
                throw new ConfigException("no configuration: set " + ENV_VARIABLE + " or create terraform.tfvars");
            }
        }
        log.println("karpenter-cdktf: reading " + source + " (" + why + ")");
        return source;
    }

    /**
     * As {@link #locate(Path, Map, PrintStream)}, but a file or directory named on a command's line comes first, and
     * the log says so.
     */
    public static Path locate(Path projectDir, Optional<Path> argument, Map<String, String> env, PrintStream log) {
        if (argument.isEmpty()) {
            return locate(projectDir, env, log);
        }
        Path source = projectDir.resolve(argument.get());
        if (!Files.exists(source)) {
            throw new ConfigException(source + " (named on the command line) does not exist");
        }
        log.println("karpenter-cdktf: reading " + source + " (named on the command line)");
        return source;
    }

    /** Reads every cluster configuration from a file or a directory of *.tfvars files. */
    public static List<ClusterConfig> load(Path source) {
        return load(source, Map.of());
    }

    /** Like {@link #load(Path)}, with the state backend settings found in {@code env} taking precedence. */
    public static List<ClusterConfig> load(Path source, Map<String, String> env) {
        return load(files(source), env);
    }

    /** Like {@link #load(Path, Map)}, for the files {@link #files(Path)} lists. */
    public static List<ClusterConfig> load(List<Path> files, Map<String, String> env) {
        return load(files, env, config -> {});
    }

    /**
     * Like {@link #load(List, Map)}, with {@code check} applied to each configuration as soon as it is built, its
     * {@link ConfigException} named after the file like any other: checks that need more than config knows (the
     * rendered pools and node classes against the release's CRDs, nodepools.manifest.SpecCheck).
     */
    public static List<ClusterConfig> load(List<Path> files, Map<String, String> env, Consumer<ClusterConfig> check) {
        Map<String, Object> overrides = new HashMap<>();
        BACKEND_ENV_OVERRIDES.forEach((variable, key) -> {
            String value = env.get(variable);
            if (value != null && !value.isBlank()) {
                overrides.put(key, value);
            }
        });
        List<ClusterConfig> configs = new ArrayList<>();
        // IAM names are case-insensitive, so clusters differing only in case would share roles and policies.
        Map<String, Path> clusters = new HashMap<>();
        Map<String, Path> queues = new HashMap<>();
        for (Path file : files) {
            ClusterConfig config;
            try {
                Map<String, Object> variables = new HashMap<>(TfvarsFile.parse(file));
                variables.putAll(overrides);
                config = fromVariables(variables);
                check.accept(config);
            } catch (ConfigException e) {
                throw e.in(file.toString());
            }
            Path earlier = clusters.putIfAbsent(config.clusterName().toLowerCase(java.util.Locale.ROOT), file);
            if (earlier != null) {
                throw new ConfigException(file + ": cluster_name " + ConfigException.quote(config.clusterName())
                        + " is also configured in " + earlier
                        + " (ignoring case, as IAM names do); each cluster needs one "
                        + "file, or its stacks would share names and state");
            }
            Path sameQueue = queues.putIfAbsent(config.interruption().queueName(), file);
            if (sameQueue != null) {
                throw new ConfigException(file + ": queue_name "
                        + ConfigException.quote(config.interruption().queueName())
                        + " is also the interruption queue of " + sameQueue + "; each cluster needs its own queue");
            }
            configs.add(config);
        }
        return List.copyOf(configs);
    }

    /** Parses and validates one tfvars file, rejecting keys that no setting reads. */
    public static ClusterConfig read(Path file) {
        return fromVariables(TfvarsFile.parse(file));
    }

    public static ClusterConfig fromVariables(Map<String, Object> variables) {
        SettingsReader settings = SettingsReader.cluster(variables);
        ClusterConfig config = ClusterConfig.from(settings);
        settings.rejectUnknownKeys();
        return config;
    }

    /** The tfvars files of a source, one per cluster: the file itself, or a directory's *.tfvars in name order. */
    public static List<Path> files(Path source) {
        return files(source, new PrintStream(java.io.OutputStream.nullOutputStream()));
    }

    /**
     * Like {@link #files(Path)}, naming on {@code log} each entry of a directory that is skipped. Symbolic links are
     * followed: a link to a regular *.tfvars file is read like one.
     */
    public static List<Path> files(Path source, PrintStream log) {
        if (!Files.isDirectory(source)) {
            return List.of(source);
        }
        try (Stream<Path> entries = Files.list(source)) {
            List<Path> files = new ArrayList<>();
            for (Path entry : entries.sorted().toList()) {
                if (!entry.getFileName().toString().endsWith(".tfvars")) {
                    log.println("karpenter-cdktf: skipping " + entry + " (not *.tfvars)");
                } else if (!Files.isRegularFile(entry)) {
                    log.println("karpenter-cdktf: skipping " + entry + " (not a regular file"
                            + (Files.isSymbolicLink(entry) ? ", or a link to none" : "") + ")");
                } else {
                    files.add(entry);
                }
            }
            if (files.isEmpty()) {
                throw new ConfigException(source + " holds no *.tfvars file");
            }
            return files;
        } catch (IOException e) {
            throw new ConfigException("cannot list " + source + ": " + e.getMessage());
        }
    }
}
