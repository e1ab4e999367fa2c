package dev.platform.karpenter.catalog;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The instance types upstream documents at the newest vendored release (CatalogueSource wrote them), with their
 * provenance. The catalogue does not depend on the Karpenter minor: it describes EC2, so one serves every release.
 * Read on first use, once per process.
 */
public final class InstanceCatalogue {
    /** On the class path. */
    public static final String RESOURCE = "/dev/platform/karpenter/catalog/instance-types.tsv.gz";

    static final String NAME_COLUMN = "name";
    static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";
    static final String RESOURCE_COLUMN = "resource:";
    static final String PRICE_COLUMN_PREFIX = "price:";
    static final String VPC_INTERFACES = "vpc:interfaces";
    static final String VPC_IPV4_PER_INTERFACE = "vpc:ipv4-per-interface";
    static final String VPC_BRANCH_INTERFACES = "vpc:branch-interfaces";
    static final String VPC_TRUNKING = "vpc:trunking";
    static final List<String> VPC_COLUMNS =
            List.of(VPC_INTERFACES, VPC_IPV4_PER_INTERFACE, VPC_BRANCH_INTERFACES, VPC_TRUNKING);

    private final Map<String, String> provenance;
    private final List<InstanceType> types;
    private final List<String> labelKeys;

    private InstanceCatalogue(Map<String, String> provenance, List<InstanceType> types, List<String> labelKeys) {
        this.provenance = Map.copyOf(provenance);
        this.types = List.copyOf(types);
        this.labelKeys = List.copyOf(labelKeys);
    }

    private static final class Shipped {
        static final InstanceCatalogue CATALOGUE = read();

        private static InstanceCatalogue read() {
            try (InputStream in = InstanceCatalogue.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(
                            "the instance catalogue " + RESOURCE + " is missing from the build");
                }
                return parse(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The catalogue the app ships. */
    public static InstanceCatalogue shipped() {
        return Shipped.CATALOGUE;
    }

    /** Reads a catalogue in CatalogueSource's format (gzipped). */
    public static InstanceCatalogue parse(InputStream gzipped) throws IOException {
        Map<String, String> provenance = new LinkedHashMap<>();
        List<InstanceType> types = new ArrayList<>();
        List<String> labelKeys = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(gzipped, 1 << 16), StandardCharsets.UTF_8))) {
            String[] columns = null;
            String priceColumn = null;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.startsWith("#")) {
                    int equals = line.indexOf('=');
                    if (equals > 0) {
                        provenance.put(line.substring(1, equals).strip(), line.substring(equals + 1));
                    }
                    continue;
                }
                if (columns == null) {
                    columns = line.split("\t", -1);
                    for (String column : columns) {
                        if (column.startsWith(PRICE_COLUMN_PREFIX)) {
                            priceColumn = column;
                        } else if (!column.equals(NAME_COLUMN)
                                && !column.startsWith(RESOURCE_COLUMN)
                                && !column.startsWith("vpc:")) {
                            labelKeys.add(column);
                        }
                    }
                    labelKeys.add(INSTANCE_TYPE_LABEL);
                    continue;
                }
                types.add(row(columns, priceColumn, line.split("\t", -1)));
            }
        }
        Collections.sort(labelKeys);
        return new InstanceCatalogue(provenance, types, labelKeys);
    }

    private static InstanceType row(String[] columns, String priceColumn, String[] cells) {
        String name = null;
        Map<String, String> labels = new HashMap<>();
        Map<String, BigDecimal> allocatable = new HashMap<>();
        BigDecimal price = null;
        int interfaces = 0;
        int ipv4 = 0;
        for (int i = 0; i < columns.length; i++) {
            String cell = i < cells.length ? cells[i] : "";
            if (cell.isEmpty()) {
                continue;
            }
            String column = columns[i];
            if (column.equals(NAME_COLUMN)) {
                name = cell;
            } else if (column.startsWith(RESOURCE_COLUMN)) {
                allocatable.put(column.substring(RESOURCE_COLUMN.length()), Quantity.parse(cell));
            } else if (column.equals(priceColumn)) {
                price = new BigDecimal(cell);
            } else if (column.equals(VPC_INTERFACES)) {
                interfaces = Integer.parseInt(cell);
            } else if (column.equals(VPC_IPV4_PER_INTERFACE)) {
                ipv4 = Integer.parseInt(cell);
            } else if (!column.startsWith("vpc:")) {
                labels.put(column, cell);
            }
        }
        labels.put(INSTANCE_TYPE_LABEL, name);
        return new InstanceType(
                name, Map.copyOf(labels), Map.copyOf(allocatable), Optional.ofNullable(price), interfaces, ipv4);
    }

    /** Every type, in upstream's order (by family, then size). */
    public List<InstanceType> types() {
        return types;
    }

    /** The label keys some type carries. */
    public List<String> labelKeys() {
        return labelKeys;
    }

    /** The release tag the data comes from, e.g. "v1.14.1". */
    public String tag() {
        return provenance.getOrDefault("tag", "");
    }

    public String commit() {
        return provenance.getOrDefault("commit", "");
    }

    /** When upstream generated the prices (ISO-8601), as their file says. */
    public String pricesGenerated() {
        return provenance.getOrDefault("prices_generated", "");
    }

    /** The region the on-demand prices are for (upstream ships us-east-1's). */
    public String pricesRegion() {
        return provenance.getOrDefault("prices_region", "");
    }

    /** Every provenance line, as written by CatalogueSource. */
    public Map<String, String> provenance() {
        return provenance;
    }
}
