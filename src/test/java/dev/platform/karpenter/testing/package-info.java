/**
 * The test harness. Unit tests synthesize the real app with {@link dev.platform.karpenter.testing.Synthesized}
 * (a builder of clusters given as tfvars lines, synthesized once per test class into a temporary directory that the
 * registered extension deletes afterwards) and read JSON and YAML only through
 * {@link dev.platform.karpenter.testing.Json}; {@link dev.platform.karpenter.testing.TestConfigs} parses tfvars
 * text through the real reader and validation. Unit test classes run two at a time and take turns with the jsii
 * kernel ({@link dev.platform.karpenter.testing.KernelLock}). Tests expect literal values (addresses, names, keys), never values
 * recomputed with production code. Integration tests ({@code *IT}, {@link dev.platform.karpenter.testing.IntegrationTest})
 * apply stacks to moto ({@link dev.platform.karpenter.testing.SharedMoto}) with
 * {@link dev.platform.karpenter.testing.TerraformRunner}.
 */
package dev.platform.karpenter.testing;
