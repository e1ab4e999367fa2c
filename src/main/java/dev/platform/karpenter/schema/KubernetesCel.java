package dev.platform.karpenter.schema;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.Program;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CEL as the Kubernetes API server evaluates {@code x-kubernetes-validations} rules: the standard library and macros
 * (dev.cel:cel), cel-go's strings extension (which Kubernetes enables: {@code split}, {@code lowerAscii}...), and a
 * shim for the Kubernetes regex library, which cel-java lacks: {@code find} and {@code findAll}. {@code self} is
 * dynamic: the rule's value as Kubernetes hands it over (objects and maps as maps, integers as int, lists as lists).
 * Compiled programs are cached by rule text; CRDs repeat many rules.
 */
final class KubernetesCel {
    private static final Cel CEL = CelFactory.standardCelBuilder()
            .setOptions(CelOptions.current()
                    .enableHeterogeneousNumericComparisons(true)
                    .build())
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar("self", SimpleType.DYN)
            .addCompilerLibraries(CelExtensions.strings())
            .addRuntimeLibraries(CelExtensions.strings())
            .addFunctionDeclarations(
                    CelFunctionDecl.newFunctionDeclaration(
                            "find",
                            CelOverloadDecl.newMemberOverload(
                                    "string_find_string", SimpleType.STRING, SimpleType.STRING, SimpleType.STRING)),
                    CelFunctionDecl.newFunctionDeclaration(
                            "findAll",
                            CelOverloadDecl.newMemberOverload(
                                    "string_find_all_string",
                                    ListType.create(SimpleType.STRING),
                                    SimpleType.STRING,
                                    SimpleType.STRING),
                            CelOverloadDecl.newMemberOverload(
                                    "string_find_all_string_int",
                                    ListType.create(SimpleType.STRING),
                                    SimpleType.STRING,
                                    SimpleType.STRING,
                                    SimpleType.INT)))
            .addFunctionBindings(
                    CelFunctionBinding.from("string_find_string", String.class, String.class, KubernetesCel::find),
                    CelFunctionBinding.from(
                            "string_find_all_string",
                            String.class,
                            String.class,
                            (text, regex) -> findAll(text, regex, -1)),
                    CelFunctionBinding.from(
                            "string_find_all_string_int",
                            List.of(String.class, String.class, Long.class),
                            args -> findAll((String) args[0], (String) args[1], (Long) args[2])))
            .build();

    private static final Map<String, Program> PROGRAMS = new ConcurrentHashMap<>();
    private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

    private KubernetesCel() {}

    /** Evaluates {@code rule} with {@code self} bound to {@code self}; a compile error is an IllegalArgumentException. */
    static Object evaluate(String rule, Object self) throws CelEvaluationException {
        return compile(rule).eval(Map.of("self", self));
    }

    /** The program of {@code rule}, compiled on first use; a compile error is an IllegalArgumentException. */
    static Program compile(String rule) {
        return PROGRAMS.computeIfAbsent(rule, KubernetesCel::compileNow);
    }

    private static Program compileNow(String rule) {
        try {
            CelAbstractSyntaxTree ast = CEL.compile(rule).getAst();
            return CEL.createProgram(ast);
        } catch (CelValidationException | CelEvaluationException e) {
            throw new IllegalArgumentException("CEL rule does not compile: " + rule + ": " + e.getMessage(), e);
        }
    }

    /** Kubernetes' {@code <string>.find(<regex>)}: the first match, or "" when there is none. */
    static String find(String text, String regex) {
        Matcher m = pattern(regex).matcher(text);
        return m.find() ? m.group() : "";
    }

    /** Kubernetes' {@code <string>.findAll(<regex> [, limit])}: all matches, at most {@code limit} when it is >= 0. */
    static List<String> findAll(String text, String regex, long limit) {
        List<String> matches = new ArrayList<>();
        Matcher m = pattern(regex).matcher(text);
        while ((limit < 0 || matches.size() < limit) && m.find()) {
            matches.add(m.group());
        }
        return matches;
    }

    private static Pattern pattern(String regex) {
        return PATTERNS.computeIfAbsent(regex, Pattern::compile);
    }
}
