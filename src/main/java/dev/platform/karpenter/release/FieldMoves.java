package dev.platform.karpenter.release;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The spec fields upstream moved when a pool or node class changed API generation, as field-moves.tsv lists them: the
 * facts taken from upstream's migration guides (v1beta1-migration: Provisioner and AWSNodeTemplate to NodePool
 * and EC2NodeClass; v1-migration: its "API Moves", renames and required fields). Paths start below {@code spec}.
 */
public final class FieldMoves {
    private FieldMoves() {}

    /** Which object of a generation holds a field: the pool (Provisioner, NodePool) or its node class. */
    public enum Holder {
        POOL,
        NODE_CLASS
    }

    /**
     * One field the older generation spells {@code from} and the newer one {@code to} (empty: no longer exists).
     *
     * @param change what else changes beyond the place (value form, defaults), or empty
     */
    public record Move(
            Holder fromHolder, List<String> from, Holder toHolder, Optional<List<String>> to, String change) {
        public Move {
            from = List.copyOf(from);
            to = to.map(List::copyOf);
        }

        /** Whether {@code spec} (a pool's or a node class's, as the user wrote it) sets this field, even to null. */
        public boolean setIn(Holder holder, Map<String, Object> spec) {
            return holder == fromHolder && new ValuePath(from).isSetIn(spec);
        }
    }

    /** The moves into generation {@code to} from the one before it. */
    public record Change(ApiGeneration from, ApiGeneration to, List<Move> moves) {
        public Change {
            moves = List.copyOf(moves);
        }

        /** The moves of the fields {@code spec} sets, in the table's order. */
        public List<Move> setIn(Holder holder, Map<String, Object> spec) {
            return moves.stream().filter(move -> move.setIn(holder, spec)).toList();
        }
    }

    private static final String TABLE = "field-moves.tsv";
    private static final List<Change> ALL = read();

    /** Every generation change, oldest first. */
    public static List<Change> all() {
        return ALL;
    }

    /** The moves into {@code generation} from the one before, empty for the first generation. */
    public static Optional<Change> into(ApiGeneration generation) {
        return ALL.stream().filter(change -> change.to() == generation).findFirst();
    }

    /** The table, one row a move in its generation change's order; the changes in the order they come. */
    private static List<Change> read() {
        Map<ApiGeneration, List<Move>> moves = new LinkedHashMap<>();
        try (InputStream in = FieldMoves.class.getResourceAsStream(TABLE)) {
            String text = new String(Objects.requireNonNull(in, TABLE).readAllBytes(), StandardCharsets.UTF_8);
            text.lines()
                    .filter(line -> !line.startsWith("#") && !line.isBlank())
                    .forEach(line -> {
                        String[] split = line.split("\t", -1);
                        if (split.length != 6 && split.length != 5) {
                            throw new IllegalStateException(TABLE + ": 6 columns expected, got " + line);
                        }
                        // An empty last column may have lost its tab to an editor.
                        String[] cells = split.length == 6
                                ? split
                                : new String[] {split[0], split[1], split[2], split[3], split[4], ""};
                        ApiGeneration into = ApiGeneration.named(cells[0])
                                .orElseThrow(() -> new IllegalStateException(TABLE + ": no generation " + cells[0]));
                        Optional<List<String>> to = switch (cells[4]) {
                            case "(gone)" -> Optional.empty();
                            case "(root)" -> Optional.of(List.of());
                            default -> Optional.of(path(cells[4]));
                        };
                        moves.computeIfAbsent(into, generation -> new ArrayList<>())
                                .add(new Move(holder(cells[1]), path(cells[2]), holder(cells[3]), to, cells[5]));
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return moves.entrySet().stream()
                .map(entry -> new Change(entry.getKey().previous().orElseThrow(), entry.getKey(), entry.getValue()))
                .toList();
    }

    private static Holder holder(String cell) {
        return Holder.valueOf(cell.toUpperCase(Locale.ROOT));
    }

    /** A field's place below spec, its keys joined by '.' (no key of these specs holds one). */
    private static List<String> path(String dotted) {
        return List.of(dotted.split("\\."));
    }
}
