package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.ALARMS;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The alarms setting: CloudWatch alarms of the interruption stack on the queue's oldest message and on the failed
 * invocations of the rules that feed it.
 *
 * @param enabled            enabled: whether the interruption stack makes the alarms (default true)
 * @param queueAgeSeconds    queue_age_seconds: the age of the queue's oldest message that counts as not drained
 * @param evaluationPeriods  evaluation_periods: minutes the queue's oldest message must stay that old
 * @param alarmActions       alarm_actions: ARNs notified when an alarm fires
 * @param okActions          ok_actions: ARNs notified when an alarm clears
 */
public record AlarmSettings(
        boolean enabled,
        int queueAgeSeconds,
        int evaluationPeriods,
        List<String> alarmActions,
        List<String> okActions) {

    public static final String ENABLED = "enabled";
    public static final String QUEUE_AGE_SECONDS = "queue_age_seconds";
    public static final String EVALUATION_PERIODS = "evaluation_periods";
    public static final String ALARM_ACTIONS = "alarm_actions";
    public static final String OK_ACTIONS = "ok_actions";
    public static final List<String> KEYS =
            List.of(ENABLED, QUEUE_AGE_SECONDS, EVALUATION_PERIODS, ALARM_ACTIONS, OK_ACTIONS);

    public static final int DEFAULT_QUEUE_AGE_SECONDS = 120;
    /** Karpenter long-polls the queue every 20 seconds: a younger threshold would fire on a healthy controller. */
    public static final int MIN_QUEUE_AGE_SECONDS = 60;
    /**
     * The queue drops messages after 300 seconds (InterruptionQueue), so its oldest message is never older: a
     * threshold from there on could never fire.
     */
    public static final int MAX_QUEUE_AGE_SECONDS = 270;

    public static final int DEFAULT_EVALUATION_PERIODS = 3;
    /** CloudWatch evaluates at most one day: 1440 periods of a minute. */
    public static final int MAX_EVALUATION_PERIODS = 1440;
    /** CloudWatch takes at most five actions per state. */
    public static final int MAX_ACTIONS = 5;

    public static final AlarmSettings DEFAULT =
            new AlarmSettings(true, DEFAULT_QUEUE_AGE_SECONDS, DEFAULT_EVALUATION_PERIODS, List.of(), List.of());

    /**
     * An action ARN as CloudWatch takes it: SNS topics, Auto Scaling policies, EC2 actions
     * (arn:aws:automate:REGION:ec2:stop), Systems Manager OpsItems and incident plans, Lambda functions.
     */
    private static final Pattern ACTION_ARN = Pattern.compile(
            "arn:aws[a-z-]*:(sns|autoscaling|automate|ssm|ssm-incidents|lambda):[a-z0-9-]*:(\\d{12}|ec2)?:?[\\w+=,.@:/*-]+");

    static AlarmSettings from(SettingsReader settings, String region) {
        Map<String, Object> raw = settings.get(ALARMS);
        String key = ALARMS.key();
        SettingsReader.requireFields(key, raw, KEYS, String.join(", ", KEYS));
        boolean enabled = raw.get(ENABLED) == null
                || SettingsReader.cast(key + "." + ENABLED, raw.get(ENABLED), Boolean.class, "true or false");
        int queueAge = number(
                raw,
                QUEUE_AGE_SECONDS,
                DEFAULT_QUEUE_AGE_SECONDS,
                MIN_QUEUE_AGE_SECONDS,
                MAX_QUEUE_AGE_SECONDS,
                "the queue keeps messages 300 seconds");
        int periods = number(
                raw,
                EVALUATION_PERIODS,
                DEFAULT_EVALUATION_PERIODS,
                1,
                MAX_EVALUATION_PERIODS,
                "CloudWatch evaluates at most one day of minutes");
        return new AlarmSettings(
                enabled, queueAge, periods, actions(raw, ALARM_ACTIONS, region), actions(raw, OK_ACTIONS, region));
    }

    private static int number(Map<String, Object> raw, String field, int byDefault, int min, int max, String why) {
        String key = ALARMS.key() + "." + field;
        if (raw.get(field) == null) {
            return byDefault;
        }
        int value = SettingsReader.toInteger(key, raw.get(field));
        ConfigException.require(
                value >= min && value <= max,
                () -> key + " must be from " + min + " to " + max + " (" + why + "), got " + value);
        return value;
    }

    private static List<String> actions(Map<String, Object> raw, String field, String region) {
        String key = ALARMS.key() + "." + field;
        if (raw.get(field) == null) {
            return List.of();
        }
        List<String> arns = SettingsReader.toStringList(key, raw.get(field));
        ConfigException.require(
                arns.size() <= MAX_ACTIONS,
                () -> key + " names " + arns.size() + " actions; CloudWatch takes at most " + MAX_ACTIONS);
        ConfigException.require(arns.stream().distinct().count() == arns.size(), () -> key + " names an action twice");
        for (String arn : arns) {
            ConfigException.requireMatch(
                    ACTION_ARN,
                    1600,
                    key,
                    "must list action ARNs (an SNS topic \"arn:aws:sns:REGION:ACCOUNT:TOPIC\", a Lambda function,"
                            + " an Auto Scaling policy, an EC2 or Systems Manager action)",
                    arn);
            Regions.requireArnInPartition(key, arn, region);
        }
        return arns;
    }
}
