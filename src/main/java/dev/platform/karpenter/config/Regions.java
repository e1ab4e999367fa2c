package dev.platform.karpenter.config;

import java.util.regex.Pattern;

/** Shape check for AWS region names (us-east-1, eu-central-2, us-gov-west-1, cn-north-1, ...). */
final class Regions {
    private static final Pattern REGION = Pattern.compile(
            "(us|eu|ap|sa|ca|me|af|il|mx|cn)(-gov|-iso|-isob)?-(north|south|east|west|central)(east|west)?-[1-9]");

    private Regions() {
    }

    static void requireValid(String key, String region) {
        if (!REGION.matcher(region).matches()) {
            throw new ConfigException(key + " must be an AWS region such as us-east-1 or ap-southeast-1, got \"" + region + "\"");
        }
    }
}
