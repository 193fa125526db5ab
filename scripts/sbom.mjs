// The software bill of materials: a CycloneDX JSON SBOM of the product's production dependencies
// (every workspace's `dependencies`, with everything they pull in), made by npm's own `npm sbom`
// from package-lock.json, offline.
//
//   npm run -s sbom                          # on standard output
//   node scripts/sbom.mjs apps/web/dist/sbom.cdx.json   # to a file (the web build ships it)
//
// `npm sbom` is run on a copy of the manifests (package.json files and the lock) in a temporary
// folder, for two things it refuses as they are (docs/architecture.md §2, "The SBOM"):
// - a package without a version cannot be named by a package URL: the product and its workspaces
//   declare none, so the copy gives them the root's version, or 0.0.0;
// - an optional peer dependency met by another version ("invalid": @hookform/resolvers names ajv 8
//   and ajv-formats 2 for a resolver we do not use, and finds ESLint's ajv 6) stops it: the copy
//   leaves optional peers out. npm never installs a package for an optional peer, so no package
//   goes missing from the SBOM for it; a required peer stays.
// Its `--omit dev` is not used: it leaves out a production package that some workspace also has
// among its devDependencies (fastify, react, zod here; npm/cli#7909). The SBOM keeps instead
// exactly what `npm ci --omit=dev` installs: every package of the lock not flagged `dev`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * What `npm ci --omit=dev` installs, as `name@version` (npm's bom-refs): every package of the lock
 * that npm did not flag `dev` (only needed by devDependencies), the workspaces included.
 */
function productionPackages(lock, version = '0.0.0') {
  const refs = new Set();
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (location === '' || entry.link || entry.dev) continue;
    const name = entry.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
    refs.add(`${name}@${entry.version ?? version}`);
  }
  return refs;
}

/**
 * The environment without what an npm that started us says of its own run (`npm run -w web build`
 * sets npm_config_workspace, `npm ci --omit=dev` npm_config_omit): the staged run decides alone.
 */
const npmEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.toLowerCase().startsWith('npm_config_') || /^npm_config_(cache|userconfig)$/i.test(key),
    ),
  );

/** The SBOM as JSON text, made from the manifests under `root`. */
function makeSbom(root = repoRoot) {
  const temporary = mkdtempSync(path.join(os.tmpdir(), 'sbom-'));
  try {
    const rootManifest = readJson(path.join(root, 'package.json'));
    const lock = readJson(path.join(root, 'package-lock.json'));
    const version = rootManifest.version ?? '0.0.0';
    // npm names the product after its folder.
    const stage = path.join(temporary, rootManifest.name);
    const write = (relative, json) => {
      mkdirSync(path.dirname(path.join(stage, relative)), { recursive: true });
      writeFileSync(path.join(stage, relative), JSON.stringify(json, null, 2));
    };

    write('package.json', { ...rootManifest, version });
    for (const workspace of rootManifest.workspaces ?? []) {
      const manifest = readJson(path.join(root, workspace, 'package.json'));
      write(path.join(workspace, 'package.json'), { ...manifest, version: manifest.version ?? version });
    }
    const production = productionPackages(lock, version);
    for (const [location, entry] of Object.entries(lock.packages)) {
      if (location === '' || (rootManifest.workspaces ?? []).includes(location)) entry.version ??= version;
      const optional = Object.entries(entry.peerDependenciesMeta ?? {}).filter(([, meta]) => meta.optional);
      for (const [name] of optional) delete entry.peerDependencies?.[name];
    }
    write('package-lock.json', lock);

    const npm = spawnSync(
      'npm',
      ['sbom', '--sbom-format=cyclonedx', '--sbom-type=application', '--package-lock-only', '--offline'],
      { cwd: stage, env: npmEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (npm.status !== 0) throw new Error(`npm sbom failed (${npm.status}):\n${npm.stderr}`);
    // Checked here, so a broken answer fails the build rather than being shipped.
    const bom = JSON.parse(npm.stdout);
    if (bom.bomFormat !== 'CycloneDX' || !Array.isArray(bom.components))
      throw new Error('npm sbom did not answer a CycloneDX document');
    const kept = (ref) => production.has(ref);
    bom.components = bom.components
      .filter((c) => kept(c['bom-ref']))
      // npm names a workspace after its folder (api); its package name is @app/api, as its purl says.
      .map((c) => ({ ...c, name: c['bom-ref'].slice(0, c['bom-ref'].lastIndexOf('@')) }));
    bom.dependencies = (bom.dependencies ?? [])
      .filter((d) => d.ref === bom.metadata.component['bom-ref'] || kept(d.ref))
      .map((d) => ({ ...d, dependsOn: (d.dependsOn ?? []).filter(kept) }));
    return `${JSON.stringify(bom, null, 2)}\n`;
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out] = process.argv.slice(2);
  try {
    const sbom = makeSbom();
    if (out) writeFileSync(out, sbom);
    else process.stdout.write(sbom);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
