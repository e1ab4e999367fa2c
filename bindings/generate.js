// Generates the Java provider bindings the app compiles against, into <project>/.gen:
//   imports.aws  - from the trimmed hashicorp/aws schema (aws-provider-schema.json), through the cdktf 0.19.2
//                  provider generator (TypeScript) and jsii-srcmak (jsii compile, then jsii-pacmak to Java);
//   imports.helm - from the published jsii assembly of @cdktf/provider-helm, re-targeted to the imports.helm
//                  package and turned into Java by jsii-pacmak.
// The inputs are hashed; when the hash matches the one recorded in .gen, nothing is generated. Generated bindings are
// also kept in a cache outside the clone, keyed by that hash and Node's major version (like ~/.m2 for Maven): a fresh
// clone of the same inputs copies them (4 MB) instead of generating them (20 s quiet, two minutes under load). The
// cache is the build cache of bindings/install: KARPENTER_BUILD_CACHE, default ~/.cache/karpenter-cdktf ("off": none).
const crypto = require("crypto");
const fs = require("fs-extra");
const os = require("os");
const path = require("path");
const { execFileSync } = require("child_process");

const here = __dirname;
const project = path.resolve(here, "..");
const genDir = path.join(project, ".gen");
const stampFile = path.join(genDir, "inputs.sha256");
const helmPackageDir = path.dirname(require.resolve("@cdktf/provider-helm/package.json"));
const versions = require("./provider-versions.json");

function inputsHash() {
  const hash = crypto.createHash("sha256");
  for (const file of ["aws-provider-schema.json", "package-lock.json", "provider-versions.json", "generate.js"]) {
    hash.update(file).update(fs.readFileSync(path.join(here, file)));
  }
  return hash.digest("hex");
}

async function generateAws(outDir) {
  const { TerraformProviderGenerator, CodeMaker } = require("@cdktf/provider-generator");
  const { generateJsiiLanguage } = require("@cdktf/provider-generator/lib/get/constructs-maker");
  const { ConstructsMakerTarget, TerraformProviderConstraint } = require("@cdktf/commons");

  const schema = fs.readJsonSync(path.join(here, "aws-provider-schema.json"));
  const constraint = new TerraformProviderConstraint(`hashicorp/aws@${versions.aws}`);
  const target = ConstructsMakerTarget.from(constraint, "java");
  const code = new CodeMaker();
  new TerraformProviderGenerator(code, schema).generate(target);
  const deps = ["@types/node", "constructs", "cdktf"].map((dep) => path.dirname(require.resolve(`${dep}/package.json`)));
  await generateJsiiLanguage(
    code,
    {
      entrypoint: target.fileName,
      deps,
      moduleKey: target.moduleKey,
      exports: {
        ".": {
          import: `./providers/${target.name}/index.js`,
          require: `./providers/${target.name}/lazy-index.js`,
        },
      },
      java: { outdir: outDir, package: `imports.${target.srcMakName}` },
    },
    outDir,
    ["modules/**"],
  );
}

function generateHelm(outDir) {
  // pacmak resolves the assembly's dependencies (cdktf, constructs) through node_modules, so the staging copy
  // lives below this folder.
  const staging = path.join(here, ".work", "provider-helm");
  fs.removeSync(staging);
  fs.copySync(helmPackageDir, staging);
  const assemblyFile = path.join(staging, ".jsii");
  const assembly = fs.readJsonSync(assemblyFile);
  assembly.targets.java.package = "imports.helm";
  for (const [name, submodule] of Object.entries(assembly.submodules || {})) {
    const leaf = name.split(".").pop().replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    submodule.targets = { ...(submodule.targets || {}), java: { package: `imports.helm.${leaf}` } };
  }
  fs.writeJsonSync(assemblyFile, assembly);
  const pacmak = require.resolve("jsii-pacmak/bin/jsii-pacmak");
  execFileSync(process.execPath, [pacmak, "--targets", "java", "--code-only", "--outdir", path.join(staging, "dist"), staging], {
    cwd: here,
    stdio: ["ignore", "inherit", "inherit"],
  });
  fs.copySync(path.join(staging, "dist", "java", "src"), path.join(outDir, "src"));
  fs.removeSync(path.join(here, ".work"));
}

// The generated code's only lint warnings are redundant casts (84 with -Xlint:all). It compiles in the same javac run
// as the app, so rather than turning that lint off for both, each generated top-level type says so itself and the
// app's own code keeps every lint.
function suppressCastWarnings(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      suppressCastWarnings(file);
    } else if (entry.name.endsWith(".java") && entry.name !== "package-info.java") {
      const source = fs.readFileSync(file, "utf8");
      const patched = source.replace(/^@javax\.annotation\.Generated\(/m, '@java.lang.SuppressWarnings("cast")\n$&');
      if (patched !== source) {
        fs.writeFileSync(file, patched);
      }
    }
  }
}

function cacheEntry(hash) {
  const setting = process.env.KARPENTER_BUILD_CACHE;
  if (setting === "off") {
    return null;
  }
  const root = setting || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "karpenter-cdktf");
  return path.join(root, "bindings", `${hash}-node${process.versions.node.split(".")[0]}`);
}

// Whole or not at all: an entry is written aside and renamed into place, so a reader never sees half of one.
function storeInCache(entry, from) {
  const aside = `${entry}.${process.pid}.partial`;
  try {
    fs.removeSync(aside);
    fs.copySync(from, aside);
    fs.renameSync(aside, entry);
  } catch (err) {
    fs.removeSync(aside);
    if (!fs.existsSync(path.join(entry, "inputs.sha256"))) {
      console.error(`bindings: could not cache the bindings in ${entry} (${err.message}); generating next time as well`);
    }
  }
}

async function main() {
  const hash = inputsHash();
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8").trim() === hash) {
    console.error("bindings: .gen is up to date, nothing to generate");
    return;
  }
  const started = Date.now();
  const building = `${genDir}.partial`;
  fs.removeSync(building);
  const entry = cacheEntry(hash);
  const cached = entry !== null && fs.existsSync(path.join(entry, "inputs.sha256"));
  if (cached) {
    fs.copySync(entry, building);
  } else {
    fs.mkdirpSync(building);
    await generateAws(building);
    generateHelm(building);
    suppressCastWarnings(path.join(building, "src"));
    fs.writeFileSync(path.join(building, "inputs.sha256"), `${hash}\n`);
    if (entry !== null) {
      storeInCache(entry, building);
    }
  }
  fs.removeSync(genDir);
  fs.moveSync(building, genDir);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.error(cached
    ? `bindings: copied imports.aws and imports.helm into .gen from ${entry} in ${seconds} s`
    : `bindings: generated imports.aws and imports.helm into .gen in ${seconds} s`);
}

main().catch((err) => {
  console.error(`bindings: generation failed: ${err.stack || err}`);
  process.exit(1);
});
