package dev.platform.karpenter.synth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A synth as libexec/app starts it, with a worker: each process's synthesizing thread shares a CPU with its kernel's
 * main thread, the worker's pair is on the next CPU, and the threads beside the kernel are left free. A kernel
 * wrapper records, while each kernel runs, the CPUs of its process and of its JVM's threads. Slow (a JVM and a
 * worker), so an integration test.
 */
@IntegrationTest
class CpuPairingIT {
    /** Threads of the JVM that start before the placing and must keep every CPU (beside the kernel, compilers). */
    private static final Set<String> FREE_THREADS = Set.of("beside-kernel", "C1 CompilerThre", "VM Thread");

    @TempDir
    Path project;

    @Test
    void eachProcessSharesOneCpuWithItsKernelAndWorkersTakeTheNext() throws Exception {
        List<Integer> allowed = CpuPairingTest.placeableCpus();
        int cpu = allowed.get(allowed.size() - 1);
        Path clusters = Files.createDirectories(project.resolve("clusters"));
        // Ten clusters: the worker gets three, so its kernel lives long enough to be seen placed.
        for (String name : List.of("c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9")) {
            Files.writeString(
                    clusters.resolve(name + ".tfvars"), TestConfigs.tfvarsFor(name, "us-west-2", TestConfigs.V1));
        }
        Path log = project.resolve("cpus.log");
        Path kernel = recordingKernel(log);

        ProcessBuilder builder = MainRuns.asProcess(project);
        builder.environment()
                .putAll(Map.of(
                        "KARPENTER_TFVARS",
                        "clusters",
                        "KARPENTER_OUTDIR",
                        "out",
                        Synthesis.PROCESSES_VARIABLE,
                        "2",
                        CpuPairing.VARIABLE,
                        String.valueOf(cpu),
                        "JSII_RUNTIME",
                        kernel.toString()));

        assertThat(builder.start().waitFor()).isZero();

        String all = CpuPairing.ranges(allowed);
        Map<String, Set<String>> kernels = new TreeMap<>();
        Map<String, Set<String>> synthesizingThreads = new TreeMap<>();
        Set<String> freeThreads = new TreeSet<>();
        for (String line : Files.readAllLines(log)) {
            String[] fields = line.split(" ", 5);
            if (fields[0].equals("kernel") && fields.length >= 3) {
                kernels.computeIfAbsent(fields[1], k -> new TreeSet<>()).add(fields[2]);
            } else if (fields[0].equals("jvm") && fields.length == 5) {
                // The JVM names its main thread after the launcher; the first is the launcher's own, which waits.
                if (fields[4].equals("java") && !fields[1].equals(fields[2])) {
                    synthesizingThreads
                            .computeIfAbsent(fields[1], k -> new TreeSet<>())
                            .add(fields[3]);
                } else if (FREE_THREADS.contains(fields[4])) {
                    freeThreads.add(fields[4] + "@" + fields[3]);
                }
            }
        }
        String next = String.valueOf(allowed.get(0));
        assertThat(kernels).as("two kernels recorded").hasSize(2);
        assertThat(kernels.values())
                .as("each kernel moves to its process's CPU")
                .extracting(cpus -> cpus.stream().filter(c -> !c.equals(all)).toList())
                .containsExactlyInAnyOrder(List.of(String.valueOf(cpu)), List.of(next));
        assertThat(synthesizingThreads.values())
                .as("each JVM's synthesizing thread moves to its kernel's CPU")
                .extracting(cpus -> cpus.stream().filter(c -> !c.equals(all)).toList())
                .containsExactlyInAnyOrder(List.of(String.valueOf(cpu)), List.of(next));
        assertThat(freeThreads)
                .as("threads started before the placing stay free")
                .isNotEmpty()
                .allMatch(thread -> thread.endsWith("@" + all));
    }

    /** A JSII_RUNTIME that starts a recorder of this kernel's and its JVM's CPUs, then becomes the kernel. */
    private Path recordingKernel(Path log) throws IOException {
        String script = """
                #!/bin/sh
                # Started by the JVM: $PPID is the JVM, and after exec this process ($$) is the kernel.
                (sh -c '
                  report() { while read -r key value; do [ "$key" = Cpus_allowed_list: ] && echo "$1 $value $2"; done < "$3/status"; }
                  while kill -0 "$1" 2>/dev/null; do
                    report "kernel $1" "" "/proc/$1"
                    for t in /proc/$2/task/*; do
                      IFS= read -r name < "$t/comm" 2>/dev/null && report "jvm $2 ${t##*/}" "$name" "$t"
                    done
                    sleep 0.03
                  done' recorder $$ $PPID >> LOG 2>/dev/null < /dev/null &)
                exec KERNEL
                """.replace("LOG", log.toString()).replace(
                "KERNEL", Path.of("libexec/jsii-kernel").toAbsolutePath().toString());
        Path kernel = project.resolve("recording-kernel");
        Files.writeString(kernel, script);
        Files.setPosixFilePermissions(kernel, PosixFilePermissions.fromString("rwxr-xr-x"));
        return kernel;
    }
}
