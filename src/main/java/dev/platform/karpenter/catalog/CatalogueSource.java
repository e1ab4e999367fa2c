package dev.platform.karpenter.catalog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * Converts three generated files of an upstream release tag into the catalogue the app ships ({@link
 * InstanceCatalogue#RESOURCE}): {@code website/content/en/docs/reference/instance-types.md} (labels and allocatable
 * resources per type), {@code pkg/providers/pricing/zz_generated.pricing_aws.go} (on-demand list prices) and {@code
 * pkg/providers/instancetype/zz_generated.vpclimits.go} (network interface limits). Upstream data only: the files
 * are read as text, no upstream code is used.
 *
 * <p>The output is a gzipped TSV: provenance lines starting with "#", a header naming each column (label keys as
 * upstream spells them, {@code resource:NAME}, {@code price:REGION}, {@code vpc:FIELD}), then one row per type in
 * upstream's order. Cells are upstream's text; an empty cell is a label or resource the type does not have. The same
 * inputs give the same bytes.
 */
public final class CatalogueSource {
    static final String INSTANCE_TYPES = "website/content/en/docs/reference/instance-types.md";
    static final String PRICING = "pkg/providers/pricing/zz_generated.pricing_aws.go";
    static final String VPC_LIMITS = "pkg/providers/instancetype/zz_generated.vpclimits.go";
    /** Every upstream file the catalogue is made from, for the vendoring script. */
    public static final List<String> FILES = List.of(INSTANCE_TYPES, PRICING, VPC_LIMITS);

    private static final Pattern TYPE_HEADING = Pattern.compile("^### `([^`]+)`\\s*$");
    private static final Pattern TABLE_ROW = Pattern.compile("^\\s*\\|([^|]+)\\|([^|]*)\\|\\s*$");
    private static final Pattern PRICING_DATE = Pattern.compile("generated at (\\S+) for (\\S+)");
    private static final Pattern PRICING_REGION = Pattern.compile("^\\s*\"([a-z0-9-]+)\": \\{\\s*$");
    private static final Pattern PRICE = Pattern.compile("\"([a-z0-9-]+\\.[a-z0-9-]+)\": ([0-9.]+)");
    private static final Pattern LIMITS_DATE = Pattern.compile("generated at (\\S+)");
    private static final Pattern LIMITS_TYPE = Pattern.compile("^\\s*\"([a-z0-9-]+\\.[a-z0-9-]+)\": \\{\\s*$");
    private static final Pattern LIMITS_FIELD = Pattern.compile("^\\s*([A-Za-z0-9]+):\\s*([^,]+),\\s*$");

    /** The provenance of one conversion, written as the catalogue's first lines. */
    public record Provenance(String tag, String commit, String commitDate) {}

    private CatalogueSource() {}

    /**
     * The catalogue's gzipped bytes.
     *
     * @param files each of {@link #FILES} mapped to its text at the tag
     */
    public static byte[] convert(Provenance provenance, Map<String, String> files) {
        Map<String, Map<String, String>> types = types(files.get(INSTANCE_TYPES));
        String pricing = files.get(PRICING);
        Matcher priced = PRICING_DATE.matcher(pricing);
        if (!priced.find()) {
            throw new IllegalArgumentException(PRICING + ": no \"generated at DATE for REGION\" line");
        }
        String priceRegion = priced.group(2);
        Map<String, String> prices = prices(pricing, priceRegion);
        String limitsText = files.get(VPC_LIMITS);
        Matcher limitsDate = LIMITS_DATE.matcher(limitsText);
        if (!limitsDate.find()) {
            throw new IllegalArgumentException(VPC_LIMITS + ": no \"generated at DATE\" line");
        }
        Map<String, Map<String, String>> limits = vpcLimits(limitsText);

        TreeSet<String> labels = new TreeSet<>();
        TreeSet<String> resources = new TreeSet<>();
        types.values()
                .forEach(cells -> cells.keySet().forEach(key -> {
                    if (key.startsWith(InstanceCatalogue.RESOURCE_COLUMN)) {
                        resources.add(key);
                    } else {
                        labels.add(key);
                    }
                }));
        List<String> columns = new ArrayList<>();
        columns.add(InstanceCatalogue.NAME_COLUMN);
        columns.addAll(labels);
        columns.addAll(resources);
        columns.add(InstanceCatalogue.PRICE_COLUMN_PREFIX + priceRegion);
        columns.addAll(InstanceCatalogue.VPC_COLUMNS);

        StringBuilder out = new StringBuilder();
        out.append("# Instance types, prices and network limits: facts derived from aws/karpenter-provider-aws\n");
        out.append("# tag=").append(provenance.tag()).append('\n');
        out.append("# commit=").append(provenance.commit()).append('\n');
        out.append("# commit_date=").append(provenance.commitDate()).append('\n');
        out.append("# types_source=").append(INSTANCE_TYPES).append('\n');
        out.append("# prices_source=").append(PRICING).append('\n');
        out.append("# prices_generated=").append(priced.group(1)).append('\n');
        out.append("# prices_region=").append(priceRegion).append('\n');
        out.append("# vpc_limits_source=").append(VPC_LIMITS).append('\n');
        out.append("# vpc_limits_generated=").append(limitsDate.group(1)).append('\n');
        out.append(String.join("\t", columns)).append('\n');
        for (Map.Entry<String, Map<String, String>> type : types.entrySet()) {
            Map<String, String> cells = new LinkedHashMap<>(type.getValue());
            cells.put(InstanceCatalogue.NAME_COLUMN, type.getKey());
            String price = prices.get(type.getKey());
            if (price != null) {
                cells.put(InstanceCatalogue.PRICE_COLUMN_PREFIX + priceRegion, price);
            }
            cells.putAll(limits.getOrDefault(type.getKey(), Map.of()));
            List<String> row = new ArrayList<>();
            for (String column : columns) {
                row.add(cells.getOrDefault(column, ""));
            }
            out.append(String.join("\t", row)).append('\n');
        }
        return gzip(out.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Each "### `type`" section's label and resource tables; the instance-type label is the row's name. */
    static Map<String, Map<String, String>> types(String markdown) {
        Map<String, Map<String, String>> types = new LinkedHashMap<>();
        Map<String, String> current = null;
        boolean inResources = false;
        for (String line : markdown.split("\n")) {
            Matcher heading = TYPE_HEADING.matcher(line);
            if (heading.matches()) {
                current = new TreeMap<>();
                types.put(heading.group(1), current);
                inResources = false;
            } else if (line.startsWith("#### ")) {
                inResources = line.strip().equals("#### Resources");
            } else if (line.startsWith("## ")) {
                current = null;
            } else if (current != null) {
                Matcher row = TABLE_ROW.matcher(line);
                if (row.matches()) {
                    String key = row.group(1).strip();
                    String value = row.group(2).strip();
                    boolean header = key.startsWith("--") || key.equals("Label") || key.equals("Resource");
                    if (!header && !key.equals(InstanceCatalogue.INSTANCE_TYPE_LABEL)) {
                        current.put(
                                inResources ? InstanceCatalogue.RESOURCE_COLUMN + key : key,
                                value.isEmpty() && !inResources ? InstanceCatalogue.EMPTY_VALUE : value);
                    }
                }
            }
        }
        if (types.isEmpty()) {
            throw new IllegalArgumentException(INSTANCE_TYPES + ": no instance type sections");
        }
        return types;
    }

    /** The prices of {@code region}'s map: "type": price pairs until the map closes. */
    static Map<String, String> prices(String go, String region) {
        Map<String, String> prices = new TreeMap<>();
        boolean inRegion = false;
        for (String line : go.split("\n")) {
            Matcher start = PRICING_REGION.matcher(line);
            if (start.matches()) {
                inRegion = start.group(1).equals(region);
                continue;
            }
            if (inRegion && line.strip().equals("},")) {
                inRegion = false;
            }
            if (inRegion) {
                Matcher price = PRICE.matcher(line);
                while (price.find()) {
                    prices.put(
                            price.group(1),
                            new BigDecimal(price.group(2)).stripTrailingZeros().toPlainString());
                }
            }
        }
        if (prices.isEmpty()) {
            throw new IllegalArgumentException(PRICING + ": no prices for " + region);
        }
        return prices;
    }

    /**
     * Per type: the interfaces of its default network card (the VPC CNI uses that card only), IPv4 addresses per
     * interface, branch interfaces (security groups per pod) and whether it supports trunking.
     */
    static Map<String, Map<String, String>> vpcLimits(String go) {
        Map<String, Map<String, String>> limits = new TreeMap<>();
        String type = null;
        Map<String, String> fields = new LinkedHashMap<>();
        List<String[]> cards = new ArrayList<>();
        String cardInterfaces = null;
        for (String line : go.split("\n")) {
            Matcher start = LIMITS_TYPE.matcher(line);
            if (start.matches()) {
                if (type != null) {
                    limits.put(type, vpcRow(type, fields, cards));
                }
                type = start.group(1);
                fields = new LinkedHashMap<>();
                cards = new ArrayList<>();
                continue;
            }
            Matcher field = LIMITS_FIELD.matcher(line);
            if (type == null || !field.matches()) {
                continue;
            }
            String name = field.group(1);
            String value = field.group(2).strip();
            switch (name) {
                case "MaximumNetworkInterfaces" -> cardInterfaces = value;
                case "NetworkCardIndex" -> cards.add(new String[] {value, cardInterfaces});
                default -> fields.putIfAbsent(name, value);
            }
        }
        if (type != null) {
            limits.put(type, vpcRow(type, fields, cards));
        }
        if (limits.isEmpty()) {
            throw new IllegalArgumentException(VPC_LIMITS + ": no limits");
        }
        return limits;
    }

    private static Map<String, String> vpcRow(String type, Map<String, String> fields, List<String[]> cards) {
        String defaultCard = fields.getOrDefault("DefaultNetworkCardIndex", "0");
        String interfaces = cards.stream()
                .filter(card -> card[0].equals(defaultCard))
                .map(card -> card[1])
                .findFirst()
                .orElse(fields.get("Interface"));
        if (interfaces == null || !fields.containsKey("IPv4PerInterface")) {
            throw new IllegalArgumentException(VPC_LIMITS + ": " + type + " lacks Interface or IPv4PerInterface");
        }
        Map<String, String> row = new LinkedHashMap<>();
        row.put(InstanceCatalogue.VPC_INTERFACES, interfaces);
        row.put(InstanceCatalogue.VPC_IPV4_PER_INTERFACE, fields.get("IPv4PerInterface"));
        row.put(InstanceCatalogue.VPC_BRANCH_INTERFACES, fields.getOrDefault("BranchInterface", "0"));
        row.put(InstanceCatalogue.VPC_TRUNKING, fields.getOrDefault("IsTrunkingCompatible", "false"));
        return row;
    }

    private static byte[] gzip(byte[] content) {
        // Java writes no file name and a zero time in the header: the same content gives the same bytes.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            gzip.write(content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
