// mcpgen is benchmarked as the JavaScript it ships (dist/esm, bundled by `make build`). The harness is
// type-checked against the TypeScript sources but imports dist/ at run time, so `make test`
// does not need a build and the benchmark does not run TypeScript through a loader.
import type * as Root from '../../runtime/index.js';
import type * as NodeEntry from '../../runtime/node.js';
import type * as Revision20251125 from '../../generated/2025-11-25/index.js';
import { distUrl } from './paths.js';

export type McpgenRoot = typeof Root;
export type McpgenNode = typeof NodeEntry;
export type McpgenRevision = typeof Revision20251125;

/** Where each public entry of mcpgen lives in dist/. */
export const MCPGEN_ENTRIES = {
  root: 'esm/runtime/index.js',
  node: 'esm/runtime/node.js',
  '2025-11-25': 'esm/generated/2025-11-25/index.js',
} as const;

// Each loader keeps its promise: the HTTP server's factory runs once per stateless request,
// and a fresh file check and dynamic import each time would charge the harness to mcpgen.
let root: Promise<McpgenRoot> | undefined;
let nodeEntry: Promise<McpgenNode> | undefined;
let revision: Promise<McpgenRevision> | undefined;

export function loadMcpgen(): Promise<McpgenRoot> {
  return (root ??= import(distUrl(MCPGEN_ENTRIES.root)) as Promise<McpgenRoot>);
}

export function loadMcpgenNode(): Promise<McpgenNode> {
  return (nodeEntry ??= import(distUrl(MCPGEN_ENTRIES.node)) as Promise<McpgenNode>);
}

export function loadMcpgenRevision(): Promise<McpgenRevision> {
  return (revision ??= import(distUrl(MCPGEN_ENTRIES['2025-11-25'])) as Promise<McpgenRevision>);
}
