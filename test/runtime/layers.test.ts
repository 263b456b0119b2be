// The layer rule of docs/architecture.md, checked on every import of runtime/: json-schema (a
// library under everything) < core < era < peers < transports < features < entries; a layer imports only from layers below it (and
// generated/), and transports never import Client, Server or Endpoint, not even as types.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNTIME = path.join(ROOT, 'runtime');
const LAYERS = ['json-schema', 'core', 'era', 'peers', 'transports', 'features', 'entries'] as const;
type Layer = (typeof LAYERS)[number];

/**
 * Imports that break the rule today, outside the transports' area; each should go, and this
 * list with them. `from -> to`, both relative to runtime/.
 */
const KNOWN_VIOLATIONS: readonly string[] = [];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The layer of a runtime file (relative to runtime/); each feature's index.ts is an entry. */
function layerOf(file: string): Layer {
  const parts = file.split('/');
  if (parts.length === 1) return 'entries';
  if (parts[0] === 'features' && parts.length === 3 && parts[2] === 'index.ts') return 'entries';
  return parts[0] as Layer;
}

/** Every module specifier a file imports or re-exports (static, type-only and dynamic). */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/(?:^|[\s;])(?:import|export)\s[^'";]*?\sfrom\s+['"]([^'"]+)['"]/g, /(?:^|[\s;])import\s+['"]([^'"]+)['"]/g, /import\(\s*['"]([^'"]+)['"]\s*\)/g, /declare\s+module\s+['"]([^'"]+)['"]/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

interface Edge {
  readonly from: string;
  readonly to: string;
}

function edges(): Edge[] {
  const all: Edge[] = [];
  for (const file of files(RUNTIME)) {
    const from = path.relative(RUNTIME, file);
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = path.relative(RUNTIME, path.resolve(path.dirname(file), specifier)).replace(/\.js$/, '.ts');
      if (target.startsWith('..')) continue; // generated/ and the like: below every layer
      all.push({ from, to: target });
    }
  }
  return all;
}

/** Why an import breaks the rule, or undefined when it keeps it. */
function violation(edge: Edge): string | undefined {
  const from = layerOf(edge.from);
  const to = layerOf(edge.to);
  if (from === 'transports' && /^peers\/(client|server|endpoint)\.ts$/.test(edge.to)) return 'transports must not import Client, Server or Endpoint';
  if (LAYERS.indexOf(to) > LAYERS.indexOf(from)) return `${from} imports ${to}, a layer above it`;
  return undefined;
}

describe('runtime layers', () => {
  const found = edges();

  it('parses the imports of the runtime', () => {
    expect(found.length).toBeGreaterThan(200);
    expect(found).toContainEqual({ from: 'peers/client.ts', to: 'core/errors.ts' });
  });

  it('imports only point down the layers, and transports never import the peers', () => {
    const broken = found
      .map((edge) => ({ edge: `${edge.from} -> ${edge.to}`, reason: violation(edge) }))
      .filter((entry) => entry.reason !== undefined && !KNOWN_VIOLATIONS.includes(entry.edge));
    expect(broken).toEqual([]);
  });

  it('lists no known violation that is gone', () => {
    const present = new Set(found.filter((edge) => violation(edge) !== undefined).map((edge) => `${edge.from} -> ${edge.to}`));
    expect(KNOWN_VIOLATIONS.filter((edge) => !present.has(edge))).toEqual([]);
  });

  it('classifies a lower layer importing a higher one, and transports importing a peer', () => {
    expect(violation({ from: 'core/protocol.ts', to: 'era/meta.ts' })).toMatch(/core imports era/);
    expect(violation({ from: 'peers/client.ts', to: 'transports/http/client-errors.ts' })).toMatch(/peers imports transports/);
    expect(violation({ from: 'transports/http/handler.ts', to: 'peers/server.ts' })).toMatch(/Client, Server or Endpoint/);
    expect(violation({ from: 'transports/http/handler.ts', to: 'features/auth/resource-server.ts' })).toMatch(/transports imports features/);
    expect(violation({ from: 'features/auth/index.ts', to: 'features/auth/plugin.ts' })).toBeUndefined();
    expect(violation({ from: 'index.ts', to: 'features/auth/plugin.ts' })).toBeUndefined();
  });
});
