import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * The software bill of materials (issue 38 item 7): `npm run -s sbom` prints a CycloneDX JSON SBOM
 * (scripts/sbom.mjs, npm's own `npm sbom` on the lock file, offline), the web build writes it beside
 * the console as sbom.cdx.json, and the API serves it from there. What it must list is worked out
 * here independently: every workspace's `dependencies`, and everything they need, resolved through
 * package-lock.json as Node resolves a require (nearest node_modules first).
 */

const root = path.resolve(import.meta.dirname, '../../../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
type LockEntry = {
  name?: string;
  version?: string;
  link?: boolean;
  resolved?: string;
  dev?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
type Component = { 'bom-ref': string; name: string; version: string; purl?: string };
type Bom = {
  bomFormat: string;
  specVersion: string;
  metadata: { component: { name: string; type: string } };
  components: Component[];
  dependencies: { ref: string; dependsOn: string[] }[];
};

const lock = readJson('package-lock.json') as { packages: Record<string, LockEntry> };
const workspaces = readJson('package.json').workspaces as string[];

/** Where `name` is found from the package at `from`, as Node looks: its node_modules, then each parent's. */
function resolve(from: string, name: string): string | undefined {
  for (let dir = from; ;) {
    const location = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    const entry = lock.packages[location];
    if (entry) return entry.link ? entry.resolved : location;
    if (!dir) return undefined;
    // From a/node_modules/b, a's node_modules; from a workspace or a top-level package, the root's.
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut >= 0 ? dir.slice(0, cut) : '';
  }
}

/** Every package a production install needs: the workspaces' dependencies and theirs, required peers too. */
function productionClosure() {
  const needed = new Map<string, string>();
  const visit = (location: string) => {
    const entry = lock.packages[location]!;
    const name = entry.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const ref = `${name}@${entry.version ?? '0.0.0'}`;
    if (needed.has(location)) return;
    needed.set(location, ref);
    const peers = Object.keys(entry.peerDependencies ?? {}).filter(
      (peer) => !entry.peerDependenciesMeta?.[peer]?.optional,
    );
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...peers,
    ];
    for (const dependency of names) {
      const found = resolve(location, dependency);
      // An optional dependency for another platform is in the lock; a missing one is not needed.
      if (found) visit(found);
      else
        expect(Object.keys(entry.optionalDependencies ?? {}), `${location} needs ${dependency}`).toContain(
          dependency,
        );
    }
  };
  for (const workspace of workspaces) visit(workspace);
  return new Set(needed.values());
}

let bom: Bom;
let text: string;
beforeAll(async () => {
  const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'sbom'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  text = stdout;
  bom = JSON.parse(stdout);
}, 60_000);

describe('npm run -s sbom', () => {
  it('prints a CycloneDX JSON document for the product, an application', () => {
    expect(bom).toMatchObject({
      bomFormat: 'CycloneDX',
      specVersion: expect.stringMatching(/^1\.\d+$/),
      metadata: { component: { name: readJson('package.json').name, type: 'application' } },
    });
    for (const component of bom.components) expect(component.purl).toMatch(/^pkg:npm\//);
  });

  it('lists every production dependency of every workspace, direct and indirect, at its installed version', () => {
    const listed = new Set(bom.components.map((c) => c['bom-ref']));
    const direct = workspaces.flatMap((workspace) =>
      Object.keys(readJson(`${workspace}/package.json`).dependencies ?? {}).map((name) => {
        const entry = lock.packages[resolve(workspace, name)!]!;
        return `${entry.name ?? name}@${entry.version ?? '0.0.0'}`;
      }),
    );
    expect(direct).toEqual(
      expect.arrayContaining(['fastify@' + lock.packages['node_modules/fastify']!.version]),
    );
    expect(direct.filter((ref) => !listed.has(ref))).toEqual([]);
    const closure = [...productionClosure()];
    expect(closure.length).toBeGreaterThan(200);
    expect(closure.filter((ref) => !listed.has(ref))).toEqual([]);
    // And its graph names them: each workspace's dependencies under the workspace's ref.
    const api = bom.dependencies.find((d) => d.ref.startsWith('@app/api@'));
    expect(api?.dependsOn).toEqual(expect.arrayContaining([expect.stringMatching(/^fastify@/)]));
  });

  it('leaves out what only development needs', () => {
    const names = new Set(bom.components.map((c) => c.name));
    for (const tool of ['eslint', 'vitest', 'typescript', 'prettier', 'knip', '@playwright/test', 'vite'])
      expect(names.has(tool), tool).toBe(false);
  });
});

describe('the SBOM beside the console', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    // What the web build does after vite build (apps/web's build script), into a console of its own.
    expect(readJson('apps/web/package.json').scripts.build).toContain(
      'node ../../scripts/sbom.mjs dist/sbom.cdx.json',
    );
    webDist = mkdtempSync(path.join(os.tmpdir(), 'sbom-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(path.join(webDist, 'sbom.cdx.json'), text);
    t = await createTestApp({ WEB_DIST: webDist });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('is served at /sbom.cdx.json to anyone, as JSON, never from a stale cache', async () => {
    const address = t.app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${address.port}/sbom.cdx.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.json()).toEqual(bom);
  });
});
