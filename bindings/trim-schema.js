// Keeps only the provider block and the resource and data-source types listed in the types file.
const fs = require("fs");
const [schemaPath, typesPath, version] = process.argv.slice(2);
const full = JSON.parse(fs.readFileSync(schemaPath, "utf8"));
const wanted = { resource: new Set(), data: new Set() };
for (const raw of fs.readFileSync(typesPath, "utf8").split("\n")) {
  const line = raw.replace(/#.*/, "").trim();
  if (!line) continue;
  const [kind, type] = line.split(/\s+/);
  if (!wanted[kind] || !type) throw new Error(`bad line in ${typesPath}: "${raw}"`);
  wanted[kind].add(type);
}
const pick = (all, names, what) => {
  const out = {};
  for (const name of [...names].sort()) {
    if (!all[name]) throw new Error(`${what} ${name} is not in the provider schema`);
    out[name] = all[name];
  }
  return out;
};
// provider_versions is what cdktf's own schema reader adds: the generator writes it into required_providers.
const trimmed = { format_version: full.format_version, provider_schemas: {}, provider_versions: {} };
for (const [fqpn, schema] of Object.entries(full.provider_schemas)) {
  trimmed.provider_versions[fqpn] = version;
  trimmed.provider_schemas[fqpn] = {
    provider: schema.provider,
    resource_schemas: pick(schema.resource_schemas, wanted.resource, "resource"),
    data_source_schemas: pick(schema.data_source_schemas, wanted.data, "data source"),
  };
}
process.stdout.write(JSON.stringify(trimmed, null, 1) + "\n");
