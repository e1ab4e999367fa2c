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
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/**
 * The instance types upstream documents at the newest vendored release (CatalogueSource wrote them), with their
 * provenance. The catalogue does not depend on the Karpenter minor: it describes EC2, so one serves every release.
 * Read on first use, once per process.
 */
public final class InstanceCatalogue {
    /** On the class path. */
    public static final String RESOURCE = "/dev/platform/karpenter/release/catalog/instance-types.tsv.gz";

    static final String NAME_COLUMN = "name";
    static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";
    static final String RESOURCE_COLUMN = "resource:";
    /**
     * A label present with an empty value (a .metal type's karpenter.k8s.aws/instance-hypervisor): an empty cell is a
     * label the type does not carry, and Exists, DoesNotExist and In [""] tell the two apart.
     */
    static final String EMPTY_VALUE = "\"\"";

    static final String PRICE_COLUMN_PREFIX = "price:";
    static final String VPC_INTERFACES = "vpc:interfaces";
    static final String VPC_IPV4_PER_INTERFACE = "vpc:ipv4-per-interface";
    static final String VPC_BRANCH_INTERFACES = "vpc:branch-interfaces";
    static final String VPC_TRUNKING = "vpc:trunking";
    static final List<String> VPC_COLUMNS =
            List.of(VPC_INTERFACES, VPC_IPV4_PER_INTERFACE, VPC_BRANCH_INTERFACES, VPC_TRUNKING);

    private final Map<String, String> provenance;
    private final List<InstanceType> types;
    private final Columns columns;
    /** Pools often repeat across clusters (a fleet's files share them): each distinct one is matched once. */
    private final Map<List<Object>, Selection> selections = new ConcurrentHashMap<>();

    private InstanceCatalogue(Map<String, String> provenance, List<InstanceType> types, Columns columns) {
        this.provenance = Map.copyOf(provenance);
        this.types = List.copyOf(types);
        this.columns = columns;
    }

    /** The header: where each label, resource and network limit is in a row. */
    static final class Columns {
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> labels = new HashMap<>();
        private final Map<String, Integer> resources = new LinkedHashMap<>();
        private final List<String> labelKeys = new ArrayList<>();
        private int price = -1;

        Columns(String[] header) {
            for (int i = 0; i < header.length; i++) {
                String column = header[i];
                index.put(column, i);
                if (column.startsWith(PRICE_COLUMN_PREFIX)) {
                    price = i;
                } else if (column.startsWith(RESOURCE_COLUMN)) {
                    resources.put(column.substring(RESOURCE_COLUMN.length()), i);
                } else if (!column.equals(NAME_COLUMN) && !column.startsWith("vpc:")) {
                    labels.put(column, i);
                    labelKeys.add(column);
                }
            }
            labelKeys.add(INSTANCE_TYPE_LABEL);
            Collections.sort(labelKeys);
        }

        int index(String column) {
            return index.getOrDefault(column, -1);
        }

        int labelIndex(String key) {
            return labels.getOrDefault(key, -1);
        }

        Map<String, Integer> resources() {
            return resources;
        }

        List<String> labelKeys() {
            return labelKeys;
        }
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
        Columns columns = null;
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(gzipped, 1 << 16), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.startsWith("#")) {
                    int equals = line.indexOf('=');
                    if (equals > 0) {
                        provenance.put(line.substring(1, equals).strip(), line.substring(equals + 1));
                    }
                } else if (columns == null) {
                    columns = new Columns(line.split("\t", -1));
                } else {
                    String[] cells = line.split("\t", -1);
                    String price = columns.price >= 0 && columns.price < cells.length ? cells[columns.price] : "";
                    types.add(new InstanceType(
                            cells[0],
                            cells,
                            columns,
                            price.isEmpty() ? Optional.empty() : Optional.of(new BigDecimal(price))));
                }
            }
        }
        if (columns == null) {
            throw new IllegalStateException("the instance catalogue has no header line");
        }
        return new InstanceCatalogue(provenance, types, columns);
    }

    /** {@link Selection#of} on this catalogue, remembered for the same requirements, node class and overlays. */
    public Selection select(List<LabelRequirement> requirements, NodeClassOffer nodeClass, List<NodeOverlay> overlays) {
        return selections.computeIfAbsent(
                List.of(requirements, nodeClass, overlays),
                key -> Selection.of(this, requirements, nodeClass, overlays));
    }

    /** Every type, in upstream's order (by family, then size). */
    public List<InstanceType> types() {
        return types;
    }

    /** The label keys some type carries. */
    public List<String> labelKeys() {
        return columns.labelKeys();
    }

    /** The release tag the data comes from ("vMAJOR.MINOR.PATCH"). */
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
