package dev.platform.karpenter.config;

import dev.platform.karpenter.config.Setting.Scope;
import dev.platform.karpenter.config.Setting.Type;
import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.NodePoolRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Every setting of a cluster's tfvars, each declared once as a typed {@link Setting} (in the spirit of a Terraform
 * module's variables.tf): key, type, default, what is allowed, the releases it applies to, where it may be written,
 * and what it does. {@link SettingsReader#get} reads by entry; terraform.tfvars.example and the README's settings tables
 * are generated from here (SettingsDocs, checked by SettingsDocsTest).
 *
 * <p>To add a setting: declare a constant in its section, e.g.
 * {@code public static final Setting<Integer> FOO = CONTROLLER.number("foo").byDefault(3).atLeast(1).describe("what
 * it does", "More for the example.");}, read it with {@code settings.get(FOO)} (or {@code optional}), and run
 * SettingsDocsTest with {@code -Dsettings.docs=write} to regenerate the docs.
 */
public final class SettingsCatalogue {
    private static final List<Setting<?>> SETTINGS = new ArrayList<>();
    private static final List<Section> SECTIONS = new ArrayList<>();

    /**
     * A group of settings, as terraform.tfvars.example and the README order them; its factories start an entry.
     *
     * @param title a few words, e.g. "Identity"
     * @param stack the stack its settings shape, e.g. "iam"; empty when several
     * @param intro what the section's settings share, for the example; may be empty
     */
    public record Section(String title, String stack, String intro) {
        public Setting.Builder<String> string(String key) {
            return entry(key, Type.STRING, (k, v) -> SettingsReader.cast(k, v, String.class, "a string"));
        }

        public Setting.Builder<Boolean> bool(String key) {
            return entry(key, Type.BOOL, (k, v) -> SettingsReader.cast(k, v, Boolean.class, "true or false"));
        }

        /** A whole number. */
        public Setting.Builder<Integer> number(String key) {
            return entry(key, Type.NUMBER, SettingsReader::toInteger);
        }

        /** A list of strings. */
        public Setting.Builder<List<String>> list(String key) {
            return entry(key, Type.LIST, SettingsReader::toStringList);
        }

        /** A map of strings. */
        public Setting.Builder<Map<String, String>> map(String key) {
            return entry(key, Type.MAP, SettingsReader::toStringMap);
        }

        /** An object of any nesting. */
        public Setting.Builder<Map<String, Object>> object(String key) {
            return entry(key, Type.OBJECT, SettingsReader::toObject);
        }

        /** A list of objects. */
        public Setting.Builder<List<Map<String, Object>>> objects(String key) {
            return entry(key, Type.OBJECT_LIST, SettingsReader::toObjectList);
        }

        /** A string naming one constant of {@code type}, which lists the allowed spellings and their releases. */
        public <E extends Enum<E> & SettingChoice> Setting.Builder<E> choice(String key, Class<E> type) {
            return entry(
                            key,
                            Type.STRING,
                            (k, v) -> SettingChoice.parse(type, k, SettingsReader.cast(k, v, String.class, "a string")))
                    .choices(type);
        }

        private <T> Setting.Builder<T> entry(String key, Type type, BiFunction<String, Object, T> convert) {
            return new Setting.Builder<>(this, key, type, convert);
        }
    }

    private static Section section(String title, String stack, String intro) {
        Section section = new Section(title, stack, intro);
        SECTIONS.add(section);
        return section;
    }

    // --- Cluster ---------------------------------------------------------------------------------------------
    public static final Section CLUSTER = section("Cluster", "", "");

    public static final Setting<String> CLUSTER_NAME = CLUSTER.string("cluster_name")
            .required("\"eks-cluster\"")
            .describe(
                    "name of the existing EKS cluster",
                    "At most 50 characters (the controller role is \"KarpenterIRSA-<cluster_name>\", and IAM role names"
                            + " stop at 64), 23 with irsa_use_name_prefix = true.");

    public static final Setting<String> REGION =
            CLUSTER.string("region").required("\"ap-southeast-1\"").describe("AWS region of the cluster");

    // --- Karpenter -------------------------------------------------------------------------------------------
    public static final Section KARPENTER = section("Karpenter", "", "");

    public static final Setting<String> KARPENTER_CHART_VERSION = KARPENTER
            .string("karpenter_chart_version")
            .required(Setting.Hcl.literal(newest().chartVersion()))
            .describe(
                    "Karpenter chart version, as the registry spells it",
                    "\"v0.30.0\" (0.30.x-0.31.x: Provisioner/AWSNodeTemplate, as in the seed guide), \"v0.32.10\" /"
                            + " \"0.37.8\" (0.32.x-0.37.x: v1beta1 NodePool/EC2NodeClass, the way from the seed to 1.x;"
                            + " a \"v\" up to 0.34) or " + Setting.Hcl.literal(newest().chartVersion()) + " (1.0.x-"
                            + newest().minorSeries() + ": v1 NodePool/EC2NodeClass). A plan refuses a step upstream"
                            + " does not allow from the deployed version and names the next one; bin/upgrade-path"
                            + " prints the whole way. The chart must support the cluster's Kubernetes version (docs/guides/"
                            + "versions-and-guards.md; " + newest().minorSeries() + ": "
                            + newest().supportedKubernetes().min() + "-"
                            + newest().supportedKubernetes().max()
                            + "); the plan of every stack stops before anything is applied when it does not. The"
                            + " seed's v0.30.0 setup is examples/seed-v0.30.tfvars.");

    public static final Setting<String> RETIRED_API = KARPENTER
            .string("retired_api")
            .example("\"v1alpha5\"")
            .releases(ReleaseSpan.where(apis -> apis.release().apiGeneration() != ApiGeneration.V1ALPHA5))
            .describe(
                    "API generation whose pools are no longer declared",
                    "0.32 and 1.0 serve two API generations. Arriving from the one before, the pools stay in the old"
                            + " one too: at 0.32 the Provisioners and AWSNodeTemplate beside their converted NodePools"
                            + " and EC2NodeClass, at 1.0 the NodePools and EC2NodeClass as v1beta1. Name the old"
                            + " generation here once no node of its objects is left (0.32: \"v1alpha5\"; 1.0:"
                            + " \"v1beta1\") and deploy again; the next minor needs it.");

    public static final Setting<String> UPGRADE_OVERRIDE = KARPENTER
            .string("upgrade_override")
            .example("\"v0.31.5\"")
            .describe(
                    "chart version whose deploy skips the step and Kubernetes checks",
                    "It waives the step guard and the Kubernetes range check for one deploy of exactly this chart"
                            + " version: a step on a cluster outside its Kubernetes range, or a fresh install over kept"
                            + " IAM and queue (bin/upgrade-path says when). Remove it after that deploy; naming another"
                            + " version than karpenter_chart_version is rejected.");

    public static final Setting<Boolean> BESIDE_AUTO_MODE = KARPENTER
            .bool("beside_auto_mode")
            .byDefault(false)
            .describe(
                    "install on an EKS Auto Mode cluster, to migrate to Auto Mode",
                    "On an EKS Auto Mode cluster (compute_config enabled) AWS already runs Karpenter, so every"
                            + " stack's plan stops. true: install beside it anyway, for a deliberate migration to Auto"
                            + " Mode (docs/guides/auto-mode.md); accepted with Karpenter "
                            + KarpenterRelease.releasesBesideAutoMode() + " only, where AWS's migration starts.");

    public static final Setting<String> KARPENTER_NAMESPACE =
            KARPENTER.string("karpenter_namespace").byDefault("karpenter").describe("namespace of the controller");

    public static final Setting<String> KARPENTER_SERVICE_ACCOUNT = KARPENTER
            .string("karpenter_service_account")
            .byDefault("karpenter")
            .describe("service account of the controller");

    // --- Identity --------------------------------------------------------------------------------------------
    public static final Section IDENTITY = section("Identity", "iam", "");

    public static final Setting<ControllerIdentity> CONTROLLER_IDENTITY = IDENTITY.choice(
                    "controller_identity", ControllerIdentity.class)
            .byDefault(ControllerIdentity.IRSA)
            .describe(
                    "how the controller gets AWS credentials",
                    "\"irsa\": IAM roles for service accounts, needs the cluster's OIDC provider. \"pod_identity\":"
                            + " EKS Pod Identity, needs the eks-pod-identity-agent add-on and a Karpenter whose AWS SDK"
                            + " knows Pod Identity.");

    public static final Setting<Boolean> IRSA_USE_NAME_PREFIX = IDENTITY.bool("irsa_use_name_prefix")
            .byDefault(false)
            .describe(
                    "controller role with a generated name",
                    "true: the controller role gets a generated name with the prefix \"KarpenterIRSA-<cluster_name>-\""
                            + " instead of the fixed name \"KarpenterIRSA-<cluster_name>\". IAM limits name prefixes to"
                            + " 38 characters.");

    public static final Setting<Boolean> CREATE_IAM_ROLE = IDENTITY.bool("create_iam_role")
            .byDefault(false)
            .describe(
                    "create a node role instead of reusing one",
                    "false: nodes reuse the IAM role of the managed node group node_group_name (or iam_role_arn),"
                            + " which is already allowed to join the cluster, so no aws-auth entry or access entry is"
                            + " added. true: create a node role \"KarpenterNodeRole-<cluster_name>\" and an EKS access"
                            + " entry for it (the cluster's authentication mode must be API or API_AND_CONFIG_MAP; the"
                            + " plan stops with a message on a CONFIG_MAP-only cluster).");

    public static final Setting<String> NODE_GROUP_NAME = IDENTITY.string("node_group_name")
            .byDefault("default")
            .describe("managed node group whose role nodes reuse");

    public static final Setting<String> IAM_ROLE_ARN = IDENTITY.string("iam_role_arn")
            .example("\"arn:aws:iam::123456789012:role/my-node-role\"")
            .describe(
                    "node role to reuse instead of the node group's",
                    "A role that belongs to no managed node group of the cluster gets an EC2_LINUX access entry"
                            + " (decided at plan; see iam_role_access_entry).");

    public static final Setting<Boolean> IAM_ROLE_ACCESS_ENTRY = IDENTITY.bool("iam_role_access_entry")
            .byDefault(true)
            .defaultCommentedOut()
            .describe(
                    "access entry for an iam_role_arn no node group has",
                    "Set it to false when that role can already join (an access entry or aws-auth mapping of your"
                            + " own).");

    // --- Interruption ----------------------------------------------------------------------------------------
    public static final Section INTERRUPTION = section("Interruption", "interruption", "");

    public static final Setting<String> QUEUE_NAME = INTERRUPTION
            .string("queue_name")
            .example("\"eks-cluster\"")
            .derivedDefault("the cluster name")
            .describe(
                    "interruption queue",
                    "The SQS queue that receives spot interruption, rebalance, instance state and AWS Health events"
                            + " (and, with Karpenter "
                            + ReleaseSpan.where(apis -> apis.release().handlesCapacityReservationInterruptions())
                                    .text()
                            + ", capacity reservation interruptions): 1 to 80 letters, digits, '-' or '_'.");

    public static final Setting<String> QUEUE_KMS_KEY_ID = INTERRUPTION
            .string("queue_kms_key_id")
            .example("\"arn:aws:kms:ap-southeast-1:123456789012:key/...\"")
            .derivedDefault("SQS-managed encryption")
            .describe(
                    "customer managed KMS key of the queue",
                    "A key id, ARN, alias or alias ARN whose key policy lets events.amazonaws.com use"
                            + " kms:GenerateDataKey and kms:Decrypt (docs/guides/what-gets-created.md). The AWS managed key alias/aws/sqs is"
                            + " rejected: EventBridge cannot write to a queue encrypted with it.");

    public static final Setting<Map<String, Object>> ALARMS = INTERRUPTION
            .object("alarms")
            .byDefault(Map.of())
            .derivedDefault("both alarms, no actions")
            .example("""
                    {
                      queue_age_seconds  = 120
                      evaluation_periods = 3
                      alarm_actions      = ["arn:aws:sns:ap-southeast-1:123456789012:karpenter-alerts"]
                      ok_actions         = ["arn:aws:sns:ap-southeast-1:123456789012:karpenter-alerts"]
                    }""")
            .describe(
                    "CloudWatch alarms on the interruption queue and its rules",
                    "Two alarms: \"<cluster_name>-InterruptionQueueAge\" fires when the queue's oldest message has"
                            + " been older than queue_age_seconds (" + AlarmSettings.MIN_QUEUE_AGE_SECONDS + " to "
                            + AlarmSettings.MAX_QUEUE_AGE_SECONDS + ", default "
                            + AlarmSettings.DEFAULT_QUEUE_AGE_SECONDS + "; the queue keeps messages 300 seconds) for"
                            + " evaluation_periods minutes (1 to " + AlarmSettings.MAX_EVALUATION_PERIODS
                            + ", default " + AlarmSettings.DEFAULT_EVALUATION_PERIODS + "): the controller is not"
                            + " draining it. \"<cluster_name>-InterruptionRuleFailures\" fires when EventBridge"
                            + " failed to deliver an event of any of the rules to the queue in five minutes."
                            + " alarm_actions and ok_actions: up to " + AlarmSettings.MAX_ACTIONS + " action ARNs"
                            + " each (SNS topics, Lambda functions, Auto Scaling policies, EC2 or Systems Manager"
                            + " actions) in the region's partition. enabled = false makes neither alarm"
                            + " (docs/guides/alerts.md).");

    // --- Controller ------------------------------------------------------------------------------------------
    public static final Section CONTROLLER = section("Controller", "karpenter", "");

    public static final Setting<Boolean> STS_REGIONAL_ENDPOINTS = CONTROLLER
            .bool("sts_regional_endpoints")
            .byDefault(false)
            .describe(
                    "service account uses regional STS endpoints",
                    "Annotates the service account with eks.amazonaws.com/sts-regional-endpoints = \"true\" (clusters"
                            + " reaching STS through VPC endpoints). Written as a string, never a boolean. Only IRSA"
                            + " reads it: with controller_identity = \"pod_identity\" the annotation is written but"
                            + " does nothing (the Pod Identity agent hands out credentials without STS).");

    public static final Setting<Integer> CONTROLLER_REPLICAS = CONTROLLER
            .number("controller_replicas")
            .byDefault(2)
            .atLeast(1)
            .describe("controller pods", "The chart's default is 2.");

    public static final Setting<Map<String, Object>> CONTROLLER_RESOURCES = CONTROLLER
            .object("controller_resources")
            .byDefault(Map.of())
            .derivedDefault("1 CPU and 1Gi, requested and as the limit")
            .example("""
                    {
                      requests = { cpu = "1", memory = "1Gi" }
                      limits   = { cpu = "1", memory = "1Gi" }
                    }""")
            .describe(
                    "requests and limits of the controller container",
                    "Quantities may be numbers or strings (cpu = 1 or \"500m\"). Setting it replaces both entirely; unset"
                            + " or empty, the controller gets upstream's guide's.");

    public static final Setting<List<Map<String, Object>>> CONTROLLER_TOLERATIONS = CONTROLLER
            .objects("controller_tolerations")
            .byDefault(List.of())
            .derivedDefault("the chart's (tolerate CriticalAddonsOnly)")
            .example("[{ key = \"CriticalAddonsOnly\", operator = \"Exists\", effect = \"NoSchedule\" }]")
            .describe(
                    "tolerations of the controller pods",
                    "They replace the chart's. Fields: key, operator (\"Equal\" or"
                            + " \"Exists\"), value, effect (" + ConfigException.quoteAll(Kubernetes.TAINT_EFFECTS)
                            + ") and tolerationSeconds (NoExecute only). A value of true or 1 is sent as the string"
                            + " \"true\" or \"1\": Kubernetes accepts only strings there.");

    public static final Setting<Map<String, Object>> CONTROLLER_AFFINITY = CONTROLLER
            .object("controller_affinity")
            .byDefault(Map.of())
            .derivedDefault("the chart's")
            .example("""
                    {
                      nodeAffinity = {
                        requiredDuringSchedulingIgnoredDuringExecution = {
                          nodeSelectorTerms = [{ matchExpressions = [{ key = "eks.amazonaws.com/nodegroup", operator = "In", values = ["default"] }] }]
                        }
                      }
                    }""")
            .describe(
                    "affinity of the controller pods",
                    "nodeAffinity, podAffinity and/or podAntiAffinity. Helm merges these into the chart's default"
                            + " affinity (which keeps the controller off nodes Karpenter launched, one per host), so"
                            + " only the parts you set change.");

    public static final Setting<Map<String, Object>> CONTROLLER_VALUES = CONTROLLER
            .object("controller_values")
            .byDefault(Map.of())
            .example("""
                    {
                      logLevel       = "debug"
                      settings       = { featureGates = { spotToSpotConsolidation = true } }
                      podAnnotations = { "prometheus.io/scrape" = "true", "prometheus.io/port" = "8080" }
                    }""")
            .describe(
                    "any value of the release's chart values.yaml, over what the settings make",
                    "In upstream's spelling, checked at synth against the deployed release's own values.yaml (an"
                            + " unknown key names the nearest one). Merged over what the settings above make: maps key"
                            + " by key, a list or a value replaces, null removes it (the chart's default too), so"
                            + " replicas here wins over controller_replicas. Refused: what the project sets itself"
                            + " (settings.clusterName, settings.clusterEndpoint, settings.interruptionQueue,"
                            + " serviceAccount.name, the eks.amazonaws.com/role-arn annotation). See"
                            + " docs/guides/upstream-fields.md.");

    public static final Setting<String> CHART_REPOSITORY = CONTROLLER
            .string("chart_repository")
            .byDefault("oci://public.ecr.aws/karpenter")
            .describe(
                    "OCI repository of the karpenter and karpenter-crd charts",
                    "A private ECR registry (oci://<account>.dkr.ecr.<region>.amazonaws.com/..., such as a"
                            + " pull-through cache of ECR Public) is logged in to with its own token and ECR Public is"
                            + " not asked; any other OCI registry without a token. The controller image moves with"
                            + " controller_values.controller.image.repository.");

    public static final Setting<Map<String, Object>> MONITORING = CONTROLLER
            .object("monitoring")
            .byDefault(Map.of())
            .derivedDefault("nothing deployed; the synth output holds the rules file and dashboards")
            .example("""
                    {
                      prometheus_rules   = true
                      grafana_dashboards = true
                      labels             = { release = "kube-prometheus-stack" }
                    }""")
            .describe(
                    "alert rules and dashboards deployed for the Prometheus Operator and Grafana",
                    "Every synth writes the alert rules of the release as a plain Prometheus rules file and two"
                            + " Grafana dashboards to stacks/<cluster>-karpenter/monitoring/ (docs/guides/alerts.md)."
                            + " prometheus_rules = true: the nodepools stack applies them as a PrometheusRule, and"
                            + " the chart's ServiceMonitor is turned on (serviceMonitor.enabled); both need the"
                            + " Prometheus Operator's CRDs. grafana_dashboards = true: the dashboards as ConfigMaps"
                            + " labelled grafana_dashboard = \"1\" for the Grafana sidecar. labels: added to the"
                            + " PrometheusRule, the ServiceMonitor (serviceMonitor.additionalLabels) and the"
                            + " ConfigMaps, for your Prometheus's and Grafana's selectors.");

    // --- Node pools ------------------------------------------------------------------------------------------
    public static final Section NODE_POOLS_SECTION = section(
            "Node pools",
            "nodepools",
            "The pool \"default\" (a Provisioner while v1alpha5 is declared, a NodePool from 0.32) and the node class"
                    + " \"default\" (an AWSNodeTemplate, from 0.32 an EC2NodeClass) every pool uses.");

    public static final Setting<AmiFamily> AMI_FAMILY = NODE_POOLS_SECTION
            .choice("ami_family", AmiFamily.class)
            .byDefault(AmiFamily.BOTTLEROCKET)
            .alsoIn(Scope.NODE_CLASS)
            .describe(
                    "operating system of the nodes",
                    "Bottlerocket nodes get a 4Gi OS and a 20Gi data gp3 volume. AL2 runs on Kubernetes up to 1.32:"
                            + " EKS publishes no AL2 AMI for 1.33 and later (the plan stops).");

    public static final Setting<String> AMI_VERSION = NODE_POOLS_SECTION
            .string("ami_version")
            .byDefault(PoolsAndNodeClasses.LATEST_AMI)
            .alsoIn(Scope.NODE_CLASS)
            .releases(ReleaseSpan.where(apis -> NodePoolRules.of(apis).hasAmiAlias(), "v1 EC2NodeClass alias"))
            .describe(
                    "AMI release of the node class alias",
                    "The EKS-optimized AMI release in the alias (\"bottlerocket@<ami_version>\"). \"latest\" follows"
                            + " every AMI release, and Karpenter replaces every node through drift each time one comes"
                            + " out; pin a release for production and move it on purpose: \"v1.10.0\"-style for"
                            + " Bottlerocket, \"v20240625\"-style for AL2023 and AL2.");

    public static final Setting<String> DISCOVERY_TAG_KEY = NODE_POOLS_SECTION
            .string("discovery_tag_key")
            .byDefault("karpenter.sh/discovery")
            .describe(
                    "tag of the subnets and security groups",
                    "Subnets and security groups carrying this tag are where Karpenter launches nodes.");

    public static final Setting<String> DISCOVERY_TAG_VALUE = NODE_POOLS_SECTION
            .string("discovery_tag_value")
            .example("\"eks-cluster\"")
            .derivedDefault("the cluster name")
            .describe("value of the discovery tag");

    public static final Setting<List<String>> CAPACITY_TYPES = NODE_POOLS_SECTION
            .list("capacity_types")
            .byDefault(List.of("spot", "on-demand"))
            .oneOf("spot", "on-demand")
            .oneOfIn(ReleaseSpan.where(apis -> apis.release().hasCapacityReservations()), PoolCapacity.RESERVED)
            .nonEmpty()
            .alsoIn(Scope.NODE_POOL)
            .describe(
                    "capacity types the pool may launch",
                    "When any pool allows spot (here, in node_requirements or in its spec's requirements), the IAM"
                            + " stack makes sure the account has the EC2 Spot service-linked role (created once with"
                            + " the AWS CLI if missing, never deleted; docs/guides/versions-and-guards.md). \"reserved\" launches"
                            + " into the on-demand capacity reservations that the node class selects"
                            + " (node_class_spec.capacityReservationSelectorTerms); a pool allowing it turns on the"
                            + " chart's ReservedCapacity feature gate where the release has it off ("
                            + ReleaseSpan.where(apis -> apis.release().hasCapacityReservations()
                                            && !apis.release().reservedCapacityOnByDefault())
                                    .text()
                            + ") unless controller_values sets it. Karpenter "
                            + ReleaseSpan.where(apis -> apis.release().hasCapacityReservations()
                                            && !apis.release().handlesCapacityReservationInterruptions())
                                    .text()
                            + " do not handle EC2's capacity reservation interruption warning (later releases drain"
                            + " the node on it, through the interruption queue's rule): a reclaimed node is replaced"
                            + " once EC2 stops it, without being drained ahead.");

    public static final Setting<List<String>> ARCHITECTURES = NODE_POOLS_SECTION
            .list("architectures")
            .byDefault(List.of("amd64"))
            .oneOf("amd64", "arm64")
            .nonEmpty()
            .alsoIn(Scope.NODE_POOL)
            .describe("CPU architectures of the nodes");

    public static final Setting<List<String>> INSTANCE_CATEGORIES = NODE_POOLS_SECTION
            .list("instance_categories")
            .byDefault(List.of("c", "m", "r"))
            .alsoIn(Scope.NODE_POOL)
            .describe("EC2 instance categories (empty: any)");

    public static final Setting<Integer> INSTANCE_GENERATION_MIN = NODE_POOLS_SECTION
            .number("instance_generation_min")
            .byDefault(3)
            .atLeast(1)
            .alsoIn(Scope.NODE_POOL)
            .describe("oldest EC2 instance generation", "3 is upstream's \"instance-generation Gt 2\".");

    public static final Setting<Integer> CPU_LIMIT = NODE_POOLS_SECTION
            .number("cpu_limit")
            .byDefault(1000)
            .atLeast(1)
            .alsoIn(Scope.NODE_POOL)
            .describe("most vCPUs the pool launches in total");

    public static final Setting<String> MEMORY_LIMIT = NODE_POOLS_SECTION
            .string("memory_limit")
            .byDefault("1000Gi")
            .alsoIn(Scope.NODE_POOL)
            .describe("most memory the pool launches in total, a Kubernetes quantity");

    public static final Setting<Boolean> CONSOLIDATION = NODE_POOLS_SECTION
            .bool("consolidation")
            .byDefault(true)
            .alsoIn(Scope.NODE_POOL)
            .describe(
                    "replace or remove underused nodes",
                    "Consolidation removes empty nodes and replaces underused ones with cheaper ones; with"
                            + " consolidation = false only empty nodes are removed, after consolidate_after (or"
                            + " ttl_seconds_after_empty).");

    public static final Setting<String> CONSOLIDATE_AFTER = NODE_POOLS_SECTION
            .string("consolidate_after")
            .example("\"1m\"")
            .derivedDefault("\"1m\" (v1); \"Never\" (v1beta1 with consolidation = false)")
            .alsoIn(Scope.NODE_POOL)
            .releases(ReleaseSpan.where(apis -> NodePoolRules.of(apis).hasConsolidateAfter()))
            .describe(
                    "delay before consolidating a node",
                    "How long a node must be consolidatable first. With v1beta1 NodePools (0.32 to 0.37) only with"
                            + " consolidation = false.");

    public static final Setting<String> EXPIRE_AFTER = NODE_POOLS_SECTION
            .string("expire_after")
            .byDefault("720h")
            .alsoIn(Scope.NODE_POOL)
            .describe("node lifetime", "Nodes are replaced after this age: a duration in s, m or h, or \"Never\".");

    public static final Setting<Integer> TTL_SECONDS_AFTER_EMPTY = NODE_POOLS_SECTION
            .number("ttl_seconds_after_empty")
            .example("30")
            .atLeast(0)
            .alsoIn(Scope.NODE_POOL)
            .releases(ReleaseSpan.where(
                    apis -> NodePoolRules.of(apis).hasTtlSecondsAfterEmpty(), "v1alpha5 Provisioners"))
            .describe(
                    "remove empty nodes after this many seconds",
                    "Only with consolidation = false: the Provisioner webhook rejects both.");

    public static final Setting<Map<String, String>> NODE_LABELS = NODE_POOLS_SECTION
            .map("node_labels")
            .byDefault(Map.of())
            .example("{ team = \"platform\" }")
            .alsoIn(Scope.NODE_POOL)
            .describe("labels of the nodes");

    public static final Setting<List<Map<String, Object>>> NODE_TAINTS = NODE_POOLS_SECTION
            .objects("node_taints")
            .byDefault(List.of())
            .example("[{ key = \"dedicated\", value = \"batch\", effect = \"NoSchedule\" }]")
            .alsoIn(Scope.NODE_POOL)
            .describe("taints of the nodes");

    public static final Setting<List<Map<String, Object>>> NODE_REQUIREMENTS = NODE_POOLS_SECTION
            .objects("node_requirements")
            .byDefault(List.of())
            .example("[{ key = \"karpenter.k8s.aws/instance-size\", operator = \"NotIn\", values = [\"metal\"] }]")
            .alsoIn(Scope.NODE_POOL)
            .describe(
                    "extra scheduling requirements",
                    "Operators: " + String.join(", ", NodeRequirement.OPERATORS) + ".");

    public static final Setting<String> UNINSTALL_HOOK_IMAGE = NODE_POOLS_SECTION
            .string("uninstall_hook_image")
            .byDefault(PoolsAndNodeClasses.DEFAULT_UNINSTALL_HOOK_IMAGE)
            .defaultCommentedOut()
            .releases(ReleaseSpan.where(
                    apis -> !NodePoolRules.of(apis).nodeClassDeletionWaitsForNodes(), "v1alpha5 Provisioners"))
            .describe(
                    "image with kubectl for the uninstall hook",
                    "On destroy, a Helm pre-delete hook Job deletes this release's Provisioners (by name) and waits"
                            + " until Karpenter has terminated their nodes (Provisioners have no finalizer that would"
                            + " make the uninstall wait). Any image with kubectl on its PATH works (no shell needed; it"
                            + " runs as user 65534 under Pod Security \"restricted\"). Default: the Kubernetes project's"
                            + " kubectl 1.28.15, pinned by digest; mirror it for clusters without internet access.");

    public static final Setting<String> NODE_POOL_NAME = NODE_POOLS_SECTION
            .string("name")
            .required("\"on-demand-arm\"")
            .onlyIn(Scope.NODE_POOL)
            .describe(
                    "name of the pool: a Kubernetes name",
                    "\"default\" makes the entry the pool \"default\" itself: the settings above, then the entry's own"
                            + " (then node_pool_spec must stay empty).");

    public static final Setting<String> NODE_POOL_NODE_CLASS = NODE_POOLS_SECTION
            .string("node_class")
            .byDefault(NodeClassSettings.DEFAULT_NODE_CLASS)
            .onlyIn(Scope.NODE_POOL)
            .describe("the node class the pool's nodes are launched with: \"default\" or a name from node_classes");

    public static final Setting<Map<String, Object>> NODE_POOL_ENTRY_SPEC = NODE_POOLS_SECTION
            .object("spec")
            .byDefault(Map.of())
            .onlyIn(Scope.NODE_POOL)
            .describe("upstream NodePool (0.30/0.31: Provisioner) spec fields of the pool, as node_pool_spec");

    public static final Setting<Map<String, Object>> NODE_POOL_METADATA = NODE_POOLS_SECTION
            .object("metadata")
            .byDefault(Map.of())
            .example("{ annotations = { \"kubernetes.io/description\" = \"GPU pool\" } }")
            .onlyIn(Scope.NODE_POOL)
            .describe(
                    "labels and annotations of the pool object",
                    "metadata.labels and metadata.annotations, checked as Kubernetes checks them; name and namespace"
                            + " are the project's.");

    public static final Setting<List<Map<String, Object>>> NODE_POOLS = NODE_POOLS_SECTION
            .objects("node_pools")
            .byDefault(List.of())
            .example("""
                    [
                      {
                        name           = "on-demand-arm"
                        capacity_types = ["on-demand"]
                        architectures  = ["arm64"]
                        cpu_limit      = 100
                        node_taints    = [{ key = "arch", value = "arm64", effect = "NoSchedule" }]
                      },
                      # Windows nodes (the node class "windows" below); the cluster needs Windows support turned on
                      {
                        name        = "windows"
                        node_class  = "windows"
                        node_taints = [{ key = "os", value = "windows", effect = "NoSchedule" }]
                        metadata    = { annotations = { "kubernetes.io/description" = "Windows workloads" } }
                      }
                    ]""")
            .describe(
                    "more pools beside \"default\" (or \"default\" itself), on any node class",
                    "Each entry has a name and may set " + keysIn(Scope.NODE_POOL)
                            + "; what it leaves out it takes from the settings"
                            + " above (an empty list or map counts as left out).");

    public static final Setting<Boolean> DEFAULT_NODE_POOL = NODE_POOLS_SECTION
            .bool("default_node_pool")
            .byDefault(true)
            .example("""
                    false
                    # a layout without it: pools under their own names, each on its node class
                    # node_pools = [
                    #   { name = "general-purpose", node_class = "default" },
                    #   { name = "gpu", node_class = "gpu", instance_categories = ["g", "p"] }
                    # ]""")
            .describe(
                    "whether the pool \"default\" exists",
                    "false: only the pools of node_pools (one of them may still be named \"default\"); the settings"
                            + " above stay what the entries inherit.");

    public static final Setting<Map<String, Object>> NODE_POOL_SPEC = NODE_POOLS_SECTION
            .object("node_pool_spec")
            .byDefault(Map.of())
            .example("""
                    {
                      disruption = {
                        budgets = [
                          { nodes = "10%" },
                          # no voluntary disruption on weekdays 09:00-17:00 UTC
                          { nodes = "0", schedule = "0 9 * * mon-fri", duration = "8h" }
                        ]
                      }
                    }""")
            .describe(
                    "upstream NodePool (0.30/0.31: Provisioner) spec fields of the pool \"default\"",
                    "Any field of the deployed release's NodePool .spec (Provisioner .spec on 0.30/0.31), in"
                            + " upstream's spelling, merged over what the settings above produce: maps key by key, a"
                            + " list or a value replaces, null removes; quote keys that need it (limits = {"
                            + " \"nvidia.com/gpu\" = 16 }). Checked at synth against that release's CRD. The project"
                            + " sets nodeClassRef (providerRef) itself: use node_class. Not inherited by node_pools.");

    public static final Setting<Map<String, Object>> NODE_CLASS_SPEC = NODE_POOLS_SECTION
            .object("node_class_spec")
            .byDefault(Map.of())
            .example("""
                    {
                      metadataOptions = { httpPutResponseHopLimit = 2 }
                    }""")
            .describe(
                    "upstream EC2NodeClass (0.30/0.31: AWSNodeTemplate) spec fields of the node class \"default\"",
                    "Any field of the deployed release's EC2NodeClass .spec (AWSNodeTemplate .spec on 0.30/0.31),"
                            + " merged and checked as node_pool_spec. The project sets role and instanceProfile itself:"
                            + " every node class uses its node role, so iam:PassRole stays exact.");

    public static final Setting<String> NODE_CLASS_NAME = NODE_POOLS_SECTION
            .string("name")
            .required("\"gpu\"")
            .onlyIn(Scope.NODE_CLASS)
            .describe(
                    "name of the node class: a Kubernetes name",
                    "\"default\" makes the entry the node class \"default\" itself (then node_class_spec must stay"
                            + " empty).");

    public static final Setting<Map<String, Object>> NODE_CLASS_ENTRY_SPEC = NODE_POOLS_SECTION
            .object("spec")
            .byDefault(Map.of())
            .onlyIn(Scope.NODE_CLASS)
            .describe("upstream EC2NodeClass (0.30/0.31: AWSNodeTemplate) spec fields, as node_class_spec");

    public static final Setting<Map<String, Object>> NODE_CLASS_METADATA = NODE_POOLS_SECTION
            .object("metadata")
            .byDefault(Map.of())
            .example("{ annotations = { \"kubernetes.io/description\" = \"Windows nodes\" } }")
            .onlyIn(Scope.NODE_CLASS)
            .describe("labels and annotations of the node class object", "As a node_pools entry's metadata.");

    public static final Setting<List<Map<String, Object>>> NODE_CLASSES = NODE_POOLS_SECTION
            .objects("node_classes")
            .byDefault(List.of())
            .example("""
                    [
                      {
                        name       = "gpu"
                        ami_family = "AL2023"
                        spec = {
                          blockDeviceMappings = [
                            { deviceName = "/dev/xvda", ebs = { volumeSize = "300Gi", volumeType = "gp3", encrypted = true } }
                          ]
                        }
                      },
                      {
                        name       = "windows"
                        ami_family = "Windows2022"
                      }
                    ]""")
            .describe(
                    "more node classes beside \"default\" (or \"default\" itself), for pools that name them",
                    "Each starts from what \"default\" gets from the settings above (node role, AMI alias, subnet"
                            + " and security group selectors, tags, the block devices of its family), then its own"
                            + " ami_family and ami_version (default: those of \"default\"), then its spec; nothing of"
                            + " node_class_spec. A node class no pool uses is not rendered (\"default\" is, when"
                            + " node_class_spec or an entry \"default\" declares it).");

    public static final Setting<List<Map<String, Object>>> NODE_OVERLAYS = NODE_POOLS_SECTION
            .objects(AddOnKind.NODE_OVERLAY.setting())
            .byDefault(List.of())
            .example("""
                    [
                      {
                        name = "savings-plan"
                        spec = {
                          requirements    = [{ key = "karpenter.k8s.aws/instance-family", operator = "In", values = ["m7i"] }]
                          priceAdjustment = "-28%"
                        }
                      }
                    ]""")
            .releases(ReleaseSpan.serving(AddOnKind.NODE_OVERLAY))
            .describe(
                    "NodeOverlays: prices and extended resources Karpenter assumes for the instance types they select",
                    "Each entry has a name, a spec (upstream NodeOverlay karpenter.sh/v1alpha1 spec fields: weight,"
                            + " requirements, price or priceAdjustment, capacity) and optionally metadata (labels,"
                            + " annotations); checked against the release's CRD, and capacity may not set a resource"
                            + " the instance types report (vpc.amazonaws.com/efa, pod-eni, Neuron, Gaudi). Turns on the"
                            + " nodeOverlay feature gate unless controller_values sets it. bin/preview prices with them"
                            + " (highest weight wins; of two of equal weight setting the same price or resource,"
                            + " Karpenter applies the second nowhere, and synth warns).");

    // --- Tags ------------------------------------------------------------------------------------------------
    public static final Section TAGS_SECTION = section("Tags", "", "");

    public static final Setting<Map<String, String>> TAGS = TAGS_SECTION
            .map("tags")
            .byDefault(Map.of())
            .example("""
                    {
                      ManagedBy = "karpenter-cdktf"
                    }""")
            .describe(
                    "tags of every AWS resource and of what Karpenter launches",
                    "Added to every AWS resource the stacks create (provider default_tags) and to everything"
                            + " Karpenter launches (instances, volumes, launch templates: the node class's spec.tags)."
                            + " AWS limits: at most " + AwsRules.MAX_TAGS + " tags, keys up to " + AwsRules.MAX_TAG_KEY
                            + " and values up to " + AwsRules.MAX_TAG_VALUE + " letters, digits, spaces or"
                            + " _ . : / = + - @, keys not starting \"aws:\". Keys Karpenter sets itself are rejected:"
                            + " karpenter.sh/provisioner-name, karpenter.sh/managed-by, karpenter.sh/nodepool,"
                            + " karpenter.sh/nodeclaim, karpenter.k8s.aws/ec2nodeclass, eks:eks-cluster-name and"
                            + " kubernetes.io/cluster/*.");

    // --- Adoption --------------------------------------------------------------------------------------------
    public static final Section ADOPTION = section("Adoption", "", "");

    public static final Setting<Map<String, Object>> ADOPT = ADOPTION.object("adopt")
            .byDefault(Map.of())
            .example("""
                    {
                      controller_role  = "KarpenterIRSA-eks-cluster"
                      instance_profile = "Karpenter-eks-cluster-20240101000000000000000001"
                      queue            = "https://sqs.ap-southeast-1.amazonaws.com/123456789012/Karpenter-eks-cluster"
                      event_rules      = { SpotInterrupt = "KarpenterSpotInterrupt-20240101000000000000000002" }
                      helm_releases    = ["karpenter/karpenter"]
                    }""")
            .describe(
                    "resources another tool made, taken over in place",
                    "Written by bin/adopt from the old Terraform state (docs/guides/adopting.md):"
                            + " the import id of each existing resource the stacks would otherwise create. The next"
                            + " plan imports them instead of creating them; roles, the instance profile and the rules"
                            + " keep their names, the queue is the one queue_name names. Keys: "
                            + String.join(", ", Adoption.KEYS)
                            + ". A resource the configuration would not create is refused. Keep it until every"
                            + " stack has been applied once; later imports of resources already in the state do"
                            + " nothing.");

    // --- Terraform state -------------------------------------------------------------------------------------
    public static final Section STATE = section("Terraform state", "", "");

    public static final Setting<String> STATE_BUCKET = STATE.string("state_bucket")
            .example("\"my-terraform-state\"")
            .derivedDefault("local state files")
            .describe(
                    "S3 bucket of the Terraform state",
                    "Empty: local state files terraform.<stack>.tfstate in the project directory. Set it for an S3"
                            + " backend (one object per stack under state_key_prefix, encrypted, locked with an S3 lock"
                            + " file; Terraform 1.10 or later).");

    public static final Setting<String> STATE_REGION = STATE.string("state_region")
            .example("\"ap-southeast-1\"")
            .derivedDefault("the cluster's region")
            .describe("region of the state bucket");

    public static final Setting<String> STATE_KEY_PREFIX = STATE.string("state_key_prefix")
            .byDefault("karpenter")
            .defaultCommentedOut()
            .describe("prefix of the state object keys");

    private SettingsCatalogue() {}

    static void register(Setting<?> setting) {
        for (Scope scope : setting.scopes()) {
            if (find(setting.key(), scope).isPresent()) {
                throw new IllegalStateException("setting " + setting.key() + " is declared twice for " + scope);
            }
        }
        SETTINGS.add(setting);
    }

    /** Every setting, in the order of the docs. */
    public static List<Setting<?>> all() {
        return List.copyOf(SETTINGS);
    }

    /** The setting that lists {@code kind}'s objects: the one declared above under the kind's setting name. */
    @SuppressWarnings("unchecked")
    public static Setting<List<Map<String, Object>>> addOns(AddOnKind kind) {
        return (Setting<List<Map<String, Object>>>) SETTINGS.stream()
                .filter(setting -> setting.key().equals(kind.setting()))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no setting " + kind.setting() + " declared for " + kind));
    }

    /** The sections, in the order of the docs. */
    public static List<Section> sections() {
        return List.copyOf(SECTIONS);
    }

    /** The settings that may be written in {@code scope}. */
    public static List<Setting<?>> in(Scope scope) {
        return SETTINGS.stream().filter(s -> s.scopes().contains(scope)).toList();
    }

    /** The setting of {@code key} that {@code scope} takes. */
    public static Optional<Setting<?>> find(String key, Scope scope) {
        return SETTINGS.stream()
                .filter(s -> s.key().equals(key) && s.scopes().contains(scope))
                .findFirst();
    }

    /** "a, b and c": the keys of the optional settings declared so far that {@code scope} takes. */
    private static String keysIn(Scope scope) {
        List<String> keys = in(scope).stream()
                .filter(setting -> !setting.required())
                .map(Setting::key)
                .toList();
        return String.join(", ", keys.subList(0, keys.size() - 1)) + " and " + keys.get(keys.size() - 1);
    }

    private static KarpenterRelease newest() {
        return KarpenterRelease.newest();
    }
}
