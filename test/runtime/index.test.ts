/**
 * The root entry (`mcpgen`, runtime/index.ts) is a curated list: what a user building a server
 * or a client needs. Its values are pinned here, so that adding one (or dropping one) is a
 * change a reviewer sees; low-level names go to `mcpgen/advanced` or `mcpgen/http` instead.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as advanced from '../../runtime/advanced.js';
import * as http from '../../runtime/http.js';
import * as root from '../../runtime/index.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every `node:` module the static imports of `entry` reach, through the repository's sources. */
function nodeModulesReached(entry: string): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  const queue = [join(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const match of code.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm)) {
      const specifier = match[1] ?? match[2]!;
      if (specifier.startsWith('node:')) found.add(`${file.slice(ROOT.length + 1)}: ${specifier}`);
      else if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  }
  return [...found].sort();
}

const ROOT_VALUES = [
  'Client',
  'ErrorCodes',
  'HttpTransportError',
  'InputRequiredSignal',
  'ListCache',
  'McpServer',
  'ProtocolError',
  'SdkError',
  'Server',
  'StreamableHttpClientTransport',
  'UriTemplate',
  'applyElicitationDefaults',
  'assertToolResult',
  'checkToolResult',
  'connectWithFallback',
  'createLinkedPair',
  'createMcpHttpHandler',
  'elicitationDefaults',
  'findHttpTransportError',
  'getDisplayName',
  'httpExtra',
  'isCallOf',
  'latestRevision',
  'latestStatefulRevision',
  'latestStatelessRevision',
  'releasedRevisions',
  'revisions',
  'statefulRevisions',
  'statelessRevisions',
  'withElicitationDefaults',
];

describe('the root entry', () => {
  it('exports exactly the curated values', () => {
    expect(Object.keys(root).sort()).toEqual([...ROOT_VALUES].sort());
  });

  it('stays small', () => {
    expect(Object.keys(root).length).toBeLessThanOrEqual(60);
  });

  it('gives each value one home: mcpgen/http and mcpgen/advanced repeat nothing of the root or each other', () => {
    const homes = [Object.keys(root), Object.keys(http), Object.keys(advanced)].flat();
    expect(homes.filter((name, index) => homes.indexOf(name) !== index)).toEqual([]);
  });

  it.each(['runtime/index.ts', 'runtime/http.ts', 'runtime/advanced.ts', 'runtime/testing.ts', 'runtime/features/skills/index.ts', 'runtime/ws.ts'])('%s is runtime-neutral: it reaches no node: module', (entry) => {
    expect(nodeModulesReached(entry)).toEqual([]);
  });

  it('sees node: modules where they are (the check is not vacuous)', () => {
    expect(nodeModulesReached('runtime/node.ts').length).toBeGreaterThan(0);
    expect(nodeModulesReached('runtime/features/skills/node/index.ts').length).toBeGreaterThan(0);
  });
});
