package dev.platform.karpenter.config;

import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A table of hostile configuration inputs, each read the way the app reads it (files on disk, {@code ConfigLoader})
 * and classified by what happened. Only {@code ConfigLoader.load(List, Map)} and {@code ConfigException} are used, so
 * the same table runs against an older build (its {@code main} prints counts per class): {@code HostileInputsTest}
 * asserts every case, the notes compare before and after.
 */
public final class HostileInputs {
    public enum Expect {
        REJECT,
        ACCEPT
    }

    /** CLEAN: one good line; FLAWED: a ConfigException with a bad message; CRASHED: anything else or a hang. */
    public enum Outcome {
        CLEAN,
        FLAWED,
        CRASHED,
        ACCEPTED,
        REFUSED_VALID
    }

    /**
     * @param files   file name to content; content null makes a FIFO, "@/dev/zero" a symlink to that device
     * @param names   what the message must name (the setting, or "line N")
     */
    public record Case(String kind, String title, Map<String, String> files, Expect expect, String names) {}

    public record Result(Case input, Outcome outcome, String message) {}

    static final String BASE =
            "cluster_name = \"demo\"\nregion = \"us-west-2\"\nkarpenter_chart_version = \"" + TestConfigs.V1 + "\"\n";
    static final String BASE_V0 = BASE.replace(TestConfigs.V1, "v0.30.0");
    private static final Pattern CLASS_NAME =
            Pattern.compile("\\b(java|javax|com|org|dev|software|sun)\\.[a-z]+\\.|Exception\\b|Error\\b|\\tat ");

    private HostileInputs() {}

    public static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        // 1. The reader evaluates or guesses.
        Function<String, Case> eval = text -> reject("evaluation", text, "line");
        cases.add(eval.apply("cluster_name = upper(\"eks\")\nregion = \"us-west-2\"\nkarpenter_chart_version = \""
                + TestConfigs.V1 + "\"\n"));
        cases.add(eval.apply(BASE + "cpu_limit = 10 * 100\n"));
        cases.add(eval.apply(BASE + "cpu_limit = 1000 + 0\n"));
        cases.add(eval.apply(BASE + "controller_replicas = true ? 2 : 3\n"));
        cases.add(eval.apply(BASE + "node_group_name = var.x\n"));
        cases.add(eval.apply(BASE + "node_group_name = local.x\n"));
        cases.add(eval.apply(BASE + "instance_categories = [for c in [\"c\"] : c]\n"));
        cases.add(eval.apply(BASE + "node_group_name = \"${upper(\"x\")}\"\n"));
        cases.add(eval.apply(BASE + "node_group_name = \"%{ if true }x%{ endif }\"\n"));
        cases.add(eval.apply(BASE + "data \"http\" \"x\" {\n  url = \"http://127.0.0.1:9/\"\n}\n"));
        cases.add(eval.apply(BASE + "tags {\n  a = \"b\"\n}\n"));
        cases.add(eval.apply(BASE + "cpu_limit = 1\ncpu_limit = 2\n"));
        cases.add(eval.apply(BASE + "stray line here\n"));
        cases.add(eval.apply(BASE + "tags = { a = \"b\", a = \"c\" }\n"));
        cases.add(eval.apply(BASE + "node_group_name = file(\"/etc/hostname\")\n"));
        cases.add(eval.apply(BASE + "node_group_name = \"a\" \"b\"\n"));
        cases.add(eval.apply(BASE + "instance_categories = [\"c\"][0]\n"));
        cases.add(eval.apply(BASE + "cpu_limit = -(-5)\n"));
        cases.add(eval.apply(BASE + "node_group_name = <<EOT\n${path.module}\nEOT\n"));
        cases.add(eval.apply(BASE + "memory_limit = format(\"%dGi\", 10)\n"));
        cases.add(eval.apply(BASE + "node_group_name = <<EOT\n%{ if true }x%{ endif }\nEOT\n"));
        cases.add(eval.apply(BASE.replace("\"demo\"", "\"de\" + \"mo\"")));
        cases.add(eval.apply(BASE + "cpu_limit = 0x10\n"));
        cases.add(eval.apply(BASE + "tags = merge({}, { a = \"b\" })\n"));
        cases.add(eval.apply(BASE + "cpu_limit = 1_000\n"));
        cases.add(eval.apply(BASE + "locals {\n  x = 1\n}\n"));
        cases.add(eval.apply(BASE + "variable \"x\" {}\n"));
        cases.add(eval.apply(BASE + "terraform {\n}\n"));
        // 2. Strings that Terraform would evaluate where they land.
        rejectEach(
                cases,
                "injection",
                "node_group_name = \"$${file(\\\"/etc/hostname\\\")}\"",
                "tags = { Team = \"%%{ for x in [1,2] }y%%{ endfor }\" }",
                "tags = { \"$${x}\" = \"v\" }",
                "discovery_tag_value = \"$${data.aws_caller_identity.x.account_id}\"",
                "queue_kms_key_id = \"$${aws_kms_key.k.arn}\"",
                "state_key_prefix = \"$${terraform.workspace}\"",
                "controller_tolerations = [{ key = \"$${x}\", operator = \"Exists\" }]",
                "controller_tolerations = [{ key = \"k\", value = \"%%{if true}x%%{endif}\" }]",
                "node_group_name = \"a\\nb\"",
                "node_group_name = \"a b\"",
                "iam_role_arn = \"arn:aws:iam::123456789012:role/$${x}\"",
                "uninstall_hook_image = \"$${x}\"",
                "node_labels = { team = \"$${x}\" }",
                "controller_affinity = { nodeAffinity = { x = \"$${file(\\\"/etc/passwd\\\")}\" } }",
                "queue_kms_key_id = \"k\\\"ey\"",
                "state_key_prefix = \"a\\u0000b\"",
                "chart_repository = \"oci://$${x}/karpenter\"");
        // 3. Inputs that crashed, hung or made a bad message.
        cases.add(reject("crash", BASE.replace("\"demo\"", "null"), "cluster_name"));
        cases.add(reject(
                "crash", BASE + "cpu_limit = null\nnode_pools = [{ name = \"x\", cpu_limit = \"y\" }]\n", "cpu_limit"));
        cases.add(
                reject("crash", BASE + "controller_affinity = " + "[".repeat(1000) + "]".repeat(1000) + "\n", "line"));
        cases.add(reject("crash", BASE + "node_group_name = \"" + "x".repeat(10_000) + "\"\n", "node_group_name"));
        cases.add(reject("crash", BASE + "ami_family = \"Ubuntu\\nsecond line\"\n", "ami_family"));
        cases.add(reject("crash", BASE + "region_x = \"\\\\\"\n", "region_x"));
        cases.add(reject("crash", BASE + "cpu_limit = 1e999\n", "line"));
        cases.add(reject("crash", BASE + "cpu_limit = 99999999999999999999\n", "cpu_limit"));
        cases.add(reject("crash", BASE + "node_pools = [null]\n", "node_pools"));
        cases.add(reject("crash", BASE + "node_pools = [{ name = null }]\n", "name"));
        cases.add(reject("crash", BASE + "tags = { a = null }\n", "tags"));
        cases.add(reject("crash", BASE + "instance_categories = [null]\n", "instance_categories"));
        cases.add(reject(
                "crash", BASE + "controller_resources = { requests = { cpu = null } }\n", "controller_resources"));
        cases.add(reject("crash", BASE + "x = \"\\uD800\"\n", "line"));
        cases.add(new Case("crash", "FIFO", Map.of("fifo.tfvars", "\0fifo"), Expect.REJECT, "fifo.tfvars"));
        cases.add(new Case("crash", "/dev/zero", Map.of("zero.tfvars", "\0/dev/zero"), Expect.REJECT, "zero.tfvars"));
        cases.add(new Case(
                "crash",
                "1 MiB + 1",
                Map.of("big.tfvars", BASE + "#" + "x".repeat(1 << 20)),
                Expect.REJECT,
                "big.tfvars"));
        cases.add(new Case(
                "crash",
                "not UTF-8",
                Map.of("latin.tfvars", BASE + "node_group_name = \"\u00ff\u00fe\"\n" + "\0latin1"),
                Expect.REJECT,
                "latin.tfvars"));
        cases.add(reject("crash", "", "cluster_name"));
        cases.add(reject("crash", "# only a comment\n", "cluster_name"));
        cases.add(reject("crash", BASE + "tags = { a = { b = \"c\" } }\n", "tags"));
        cases.add(reject("crash", BASE + "node_pools = {}\n", "node_pools"));
        cases.add(reject("crash", BASE + "controller_affinity = \"x\"\n", "controller_affinity"));
        cases.add(reject("crash", BASE + "node_pools = [" + "{ name = \"p\" }, ".repeat(2) + "]\n", "node_pools"));
        cases.add(reject(
                "crash", BASE + "controller_values = { settings = { featureGates = [null] } }\n", "controller_values"));
        cases.add(reject("crash", BASE + "controller_values = { settings = { featureGates = { x = null } } }\n", "x"));
        cases.add(reject("crash", BASE + "controller_values = [null]\n", "controller_values"));
        // 4. AWS tags.
        rejectEach(
                cases,
                "aws tags",
                "tags = { \"aws:x\" = \"v\" }",
                "tags = { \"AWS:x\" = \"v\" }",
                "tags = { \"" + "k".repeat(129) + "\" = \"v\" }",
                "tags = { k = \"" + "v".repeat(257) + "\" }",
                "tags = { "
                        + String.join(
                                ", ",
                                java.util.stream.IntStream.range(0, 51)
                                        .mapToObj(i -> "t" + i + " = \"v\"")
                                        .toList())
                        + " }",
                "tags = { \"a*b\" = \"v\" }",
                "tags = { k = \"a;b\" }",
                "tags = { \"\" = \"v\" }",
                "tags = { k = 1 }");
        // 5. Kubernetes labels, taints, requirements.
        rejectEach(
                cases,
                "kubernetes",
                "node_labels = { \"karpenter.sh/nodepool\" = \"x\" }",
                "node_labels = { \"kubernetes.io/hostname\" = \"x\" }",
                "node_labels = { \"karpenter.k8s.aws/made-up\" = \"x\" }",
                "node_labels = { \"karpenter.sh/registered\" = \"true\" }",
                "node_requirements = [{ key = \"kubernetes.io/hostname\", operator = \"In\", values = [\"a\"] }]",
                "node_requirements = [{ key = \"karpenter.sh/nodepool\", operator = \"In\", values = [\"a\"] }]",
                "node_labels = { \"Example.com/x\" = \"y\" }",
                "node_labels = { \"a/b/c\" = \"y\" }",
                "node_labels = { team = \"" + "v".repeat(64) + "\" }",
                "node_taints = [{ key = \"k\", effect = \"NoEvict\" }]",
                "node_taints = [{ key = \"k\", value = \"a b\", effect = \"NoSchedule\" }]",
                "controller_tolerations = [{ key = \"a b\", operator = \"Exists\" }]",
                "controller_tolerations = [{ key = \"k\", operator = \"Equal\", value = \"" + "v".repeat(64) + "\" }]",
                "discovery_tag_key = \"aws:x\"",
                "discovery_tag_value = \"a;b\"",
                "node_pools = [{ name = \"Big\" }]",
                "node_pools = [{ name = \"" + "a".repeat(64) + "\" }]",
                "node_taints = [{ key = \"k\", value = \"v\" }]",
                "node_requirements = [{ key = \"a\", operator = \"Gt\", values = [\"x\"] }]",
                "karpenter_namespace = \"kube_system\"");
        cases.add(reject(
                "kubernetes", BASE_V0 + "node_labels = { \"example.kubernetes.io/x\" = \"x\" }\n", "node_labels"));
        cases.add(reject(
                "kubernetes",
                BASE_V0 + "node_labels = { \"karpenter.sh/provisioner-name\" = \"x\" }\n",
                "node_labels"));
        // 6. Quantities, durations, numbers.
        rejectEach(
                cases,
                "quantities",
                "memory_limit = \"0\"",
                "memory_limit = \"-1Gi\"",
                "memory_limit = \"1.5.5Gi\"",
                "memory_limit = \"10GB\"",
                "cpu_limit = 0",
                "cpu_limit = 1.5",
                "cpu_limit = \"1000\"",
                "expire_after = \"0s\"",
                "expire_after = \"0h0m\"",
                "expire_after = \"1d\"",
                "consolidate_after = \"-1m\"",
                "controller_replicas = 0",
                "controller_replicas = 2.5",
                "controller_resources = { requests = { cpu = \"-1\" } }",
                "controller_resources = { requests = { cpu = \"1 cpu\" } }",
                "instance_generation_min = 0",
                "controller_tolerations = [{ key = \"k\", effect = \"NoExecute\", tolerationSeconds = -1 }]");
        // 7. Regions and other names.
        Function<String, Case> region = text -> reject("regions and names", text, "region");
        cases.add(region.apply(BASE.replace("us-west-2", "us-west-9")));
        cases.add(region.apply(BASE.replace("us-west-2", "us-wset-2")));
        cases.add(region.apply(BASE.replace("us-west-2", "US-WEST-2")));
        cases.add(region.apply(BASE.replace("us-west-2", "aws-global")));
        cases.add(region.apply(BASE + "state_region = \"eu-nowhere-1\"\n"));
        cases.add(reject("regions and names", BASE.replace("\"demo\"", "\"de mo\""), "cluster_name"));
        cases.add(reject("regions and names", BASE + "node_group_name = \"\"\n", "node_group_name"));
        cases.add(reject(
                "regions and names", BASE + "node_group_name = \"" + "n".repeat(64) + "\"\n", "node_group_name"));
        cases.add(reject("regions and names", BASE + "queue_kms_key_id = \"not a key\"\n", "queue_kms_key_id"));
        cases.add(reject("regions and names", BASE + "iam_role_arn = \"arn:aws:iam::123:role/x\"\n", "iam_role_arn"));
        cases.add(reject("regions and names", BASE + "state_key_prefix = \"a//b\"\n", "state_key_prefix"));
        cases.add(reject(
                "regions and names",
                BASE + "iam_role_arn = \"arn:aws-cn:iam::123456789012:role/x\"\n",
                "iam_role_arn"));
        cases.add(reject(
                "regions and names",
                BASE.replace("us-west-2", "cn-north-1")
                        + "queue_kms_key_id = \"arn:aws:kms:cn-north-1:123456789012:key/k\"\n",
                "queue_kms_key_id"));
        cases.add(reject(
                "regions and names", BASE_V0 + "uninstall_hook_image = \"UPPER/case\"\n", "uninstall_hook_image"));
        cases.add(reject("regions and names", BASE + "karpenter_chart_version = \"" + TestConfigs.V1 + "\"\n", "line"));
        cases.add(region.apply(BASE.replace("us-west-2", "")));
        cases.add(reject("regions and names", BASE + "state_bucket = \"ab\"\n", "state_bucket"));
        // 8. Several files in one directory.
        cases.add(new Case(
                "cross-file",
                "names equal but for case",
                Map.of("a.tfvars", BASE, "b.tfvars", BASE.replace("\"demo\"", "\"DEMO\"")),
                Expect.REJECT,
                "cluster_name"));
        cases.add(new Case(
                "cross-file",
                "shared queue name",
                Map.of(
                        "a.tfvars",
                        BASE + "queue_name = \"q\"\n",
                        "b.tfvars",
                        BASE.replace("\"demo\"", "\"other\"") + "queue_name = \"q\"\n"),
                Expect.REJECT,
                "queue_name"));
        cases.add(new Case(
                "cross-file",
                "queue name of another cluster",
                Map.of("a.tfvars", BASE, "b.tfvars", BASE.replace("\"demo\"", "\"other\"") + "queue_name = \"demo\"\n"),
                Expect.REJECT,
                "queue_name"));
        cases.add(new Case(
                "cross-file",
                "same cluster twice",
                Map.of("a.tfvars", BASE, "b.tfvars", BASE),
                Expect.REJECT,
                "cluster_name"));
        cases.add(new Case(
                "cross-file",
                "shared state key",
                Map.of(
                        "a.tfvars", BASE + "state_bucket = \"bucket\"\nstate_key_prefix = \"p\"\n",
                        "b.tfvars",
                                BASE.replace("\"demo\"", "\"other\"").replace("us-west-2", "eu-west-1")
                                        + "state_bucket = \"bucket\"\nstate_key_prefix = \"p\"\n"),
                Expect.ACCEPT,
                ""));
        // 9. Valid inputs that must pass.
        Function<String, Case> valid =
                text -> new Case("valid", text.replace(BASE, "").strip(), Map.of("ok.tfvars", text), Expect.ACCEPT, "");
        cases.add(valid.apply(BASE + "cpu_limit = 1e3\n"));
        cases.add(valid.apply(BASE.replace("us-west-2", "eusc-de-east-1")));
        cases.add(valid.apply(BASE.replace("us-west-2", "cn-north-1")));
        cases.add(valid.apply(BASE.replace("us-west-2", "us-gov-west-1")));
        cases.add(valid.apply(BASE.replace("us-west-2", "cn-north-1")
                + "iam_role_arn = \"arn:aws-cn:iam::123456789012:role/nodes\"\n"));
        cases.add(valid.apply(BASE + "cpu_limit = null\nmemory_limit = null\n"));
        // kubernetes.io/cluster/* is valid for AWS but reserved by Karpenter for the nodes, which tags also reach.
        cases.add(valid.apply(
                BASE + "tags = { \"example.com/cluster/demo\" = \"owned\", Team = \"a b_c.d:e/f=g+h-i@j\" }\n"));
        cases.add(valid.apply(BASE + "node_labels = { \"example.com/team\" = \"platform\" }\n"));
        cases.add(valid.apply(BASE + "expire_after = \"Never\"\nmemory_limit = \"1.5Ti\"\n"));
        cases.add(valid.apply(BASE + "/* c */ # c\n// c\ntags = {\n  a = \"b\" # c\n}\n"));
        cases.add(valid.apply(BASE + "node_labels = { \"karpenter.k8s.aws/instance-size\" = \"large\" }\n"));
        cases.add(valid.apply(BASE_V0 + "node_labels = { \"node.kubernetes.io/role\" = \"x\" }\n"));
        cases.add(new Case("valid", "byte order mark", Map.of("bom.tfvars", "\uFEFF" + BASE), Expect.ACCEPT, ""));
        cases.add(new Case(
                "valid",
                "CRLF line ends",
                Map.of("crlf.tfvars", BASE.replace("\n", "\r\n") + "tags = {\r\n  a = \"b\"\r\n}\r\n"),
                Expect.ACCEPT,
                ""));
        cases.add(valid.apply(BASE + "tags = { \"\u00dcn\u00efcode\" = \"v\u00e4lue \u65e5\u672c\" }\n"));
        cases.add(valid.apply(BASE + "controller_resources = { requests = { cpu = 0.5, memory = \"512Mi\" } }\n"));
        cases.add(valid.apply(BASE + "controller_values = { affinity = { nodeAffinity = { "
                + "requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms = [null, \"x\"] } } } }\n"));
        cases.add(valid.apply(
                BASE + "controller_values = { nodeSelector = null, podAnnotations = { \"a: b\" = \"\\n\" } }\n"));
        // Free-form text takes template syntax, escaped for Terraform (TerraformStringsIT evaluates it back).
        cases.add(valid.apply(
                BASE + "controller_values = { podAnnotations = { note = \"$${file(\\\"/etc/passwd\\\")}\" } }\n"));
        cases.add(valid.apply(
                BASE + "controller_values = { podAnnotations = { \"%%{ if true }x%%{ endif }\" = \"v\" } }\n"));
        cases.add(valid.apply(
                BASE + "controller_values = { controller = { env = [{ name = \"A\", value = \"$${x}\" }] } }\n"));
        cases.add(valid.apply(BASE + "node_class_spec = { userData = \"#!/bin/bash\\necho $${HOME}\" }\n"));
        return cases;
    }

    /** One case a line, each added to the required settings and rejected naming the setting the line sets. */
    private static void rejectEach(List<Case> cases, String kind, String... lines) {
        for (String line : lines) {
            cases.add(reject(kind, BASE + line + "\n", line.substring(0, line.indexOf(' '))));
        }
    }

    private static Case reject(String kind, String text, String names) {
        String title = text.startsWith(BASE) ? text.substring(BASE.length()) : text;
        return new Case(kind, title.strip(), Map.of("input.tfvars", text), Expect.REJECT, names);
    }

    /** Writes the case's files into {@code dir} and reads them as the app does, within 10 seconds. */
    public static Result run(Case input, Path dir, ExecutorService executor) throws IOException, InterruptedException {
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> file : new java.util.TreeMap<>(input.files()).entrySet()) {
            Path path = dir.resolve(file.getKey());
            String content = file.getValue();
            if (content.equals("\0fifo")) {
                new ProcessBuilder("mkfifo", path.toString()).start().waitFor();
            } else if (content.equals("\0/dev/zero")) {
                Files.createSymbolicLink(path, Path.of("/dev/zero"));
            } else if (content.endsWith("\0latin1")) {
                Files.write(
                        path, content.replace("\0latin1", "").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            } else {
                Files.writeString(path, content);
            }
            files.add(path);
        }
        Future<?> reading = executor.submit(() -> ConfigLoader.load(files, Map.of()));
        try {
            reading.get(5, TimeUnit.MINUTES);
            return new Result(input, input.expect() == Expect.ACCEPT ? Outcome.CLEAN : Outcome.ACCEPTED, "");
        } catch (TimeoutException e) {
            reading.cancel(true);
            return new Result(input, Outcome.CRASHED, "no answer within 10 s");
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            String message = String.valueOf(cause.getMessage());
            if (!(cause instanceof ConfigException)) {
                return new Result(input, Outcome.CRASHED, cause.getClass().getName() + ": " + message);
            }
            if (input.expect() == Expect.ACCEPT) {
                return new Result(input, Outcome.REFUSED_VALID, message);
            }
            String firstFile = files.get(files.size() - 1).getFileName().toString();
            boolean good = !message.contains("\n")
                    && message.length() <= 300
                    && !CLASS_NAME.matcher(message).find()
                    && (message.contains(firstFile)
                            || message.contains(files.get(0).getFileName().toString()))
                    && message.contains(input.names());
            return new Result(input, good ? Outcome.CLEAN : Outcome.FLAWED, message);
        }
    }

    /** Runs the table and prints each result and the counts per class: {@code java HostileInputs [--all]}. */
    public static void main(String[] args) throws Exception {
        ExecutorService executor = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r);
            thread.setDaemon(true);
            return thread;
        });
        Map<String, Map<Outcome, Integer>> counts = new LinkedHashMap<>();
        for (Case input : cases()) {
            Path dir = Files.createTempDirectory("hostile");
            Result result = run(input, dir, executor);
            counts.computeIfAbsent(input.kind(), k -> new LinkedHashMap<>()).merge(result.outcome(), 1, Integer::sum);
            if (args.length > 0) {
                String message =
                        result.message().length() > 160 ? result.message().substring(0, 160) + "..." : result.message();
                System.out.printf(
                        "%-9s %-18s %.60s | %s%n",
                        result.outcome(),
                        input.kind(),
                        input.title().replace("\n", "\\n"),
                        message.replace("\n", "\\n"));
            }
        }
        System.out.printf(
                "%-18s %5s %6s %6s %7s %8s %8s%n",
                "class", "cases", "clean", "flawed", "crashed", "accepted", "refused");
        int[] total = new int[6];
        counts.forEach((kind, byOutcome) -> {
            int[] row = {
                byOutcome.values().stream().mapToInt(Integer::intValue).sum(),
                byOutcome.getOrDefault(Outcome.CLEAN, 0),
                byOutcome.getOrDefault(Outcome.FLAWED, 0),
                byOutcome.getOrDefault(Outcome.CRASHED, 0),
                byOutcome.getOrDefault(Outcome.ACCEPTED, 0),
                byOutcome.getOrDefault(Outcome.REFUSED_VALID, 0)
            };
            for (int i = 0; i < 6; i++) {
                total[i] += row[i];
            }
            System.out.printf("%-18s %5d %6d %6d %7d %8d %8d%n", kind, row[0], row[1], row[2], row[3], row[4], row[5]);
        });
        System.out.printf(
                "%-18s %5d %6d %6d %7d %8d %8d%n", "total", total[0], total[1], total[2], total[3], total[4], total[5]);
        System.exit(0);
    }
}
