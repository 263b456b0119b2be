// mcpgen's Fetch handler inside workerd (Cloudflare's runtime, through miniflare), where code
// generation from strings is forbidden: the worker is the browser/Workers bundle of a one-tool
// server, and mcpgen's Client answers from Node over real HTTP for a 2025-11-25 session and a
// 2026-07-28 request. The worker's server is not pinned, so each revision's module loads at the
// first request that negotiates it (the loaders' dynamic import, which the Workers bundle keeps
// as deferred module initialisation): lazy loading at request time works under workerd. A Worker
// that passes `revisions: [revisionModule]` loads nothing at run time.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { Miniflare, NoOpLog } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle, stageEntry, targetOptions } from '../package/bundles.js';
import { packedProject, ROOT } from '../package/packed.js';
import { recordRuntime } from './runtimes.js';

const FIXTURES = path.join(ROOT, 'test/runtimes/fixtures');
/** This file's folder in the consumer project (test files run in parallel, each stages its own copies). */
const FOLDER = 'runtimes-workerd';

interface E2eClient {
  exerciseHttp(url: string): Promise<{ protocolVersion: string; era: string; sum: string; session: boolean }[]>;
}

let mf: Miniflare | undefined;
let url: URL;
let client: E2eClient;

beforeAll(async () => {
  const { projectDir } = await packedProject();
  await stageEntry(projectDir, path.join(FIXTURES, 'server.js'), FOLDER);
  await stageEntry(projectDir, path.join(FIXTURES, 'e2e-client.js'), FOLDER);
  const worker = await bundle(await stageEntry(projectDir, path.join(FIXTURES, 'worker.js'), FOLDER), 'workers');
  mf = new Miniflare({
    modules: true,
    script: worker.code,
    // No nodejs_compat flag: the worker gets the plain Workers platform.
    compatibilityDate: '2026-04-01',
    host: '127.0.0.1',
    port: 0,
  });
  url = new URL('/mcp', await mf.ready);
  client = (await import(pathToFileURL(path.join(projectDir, FOLDER, 'e2e-client.js')).href)) as E2eClient;
}, 300_000);

afterAll(async () => {
  await mf?.dispose();
});

describe('workerd (miniflare)', () => {
  it('forbids eval, so what passes below passed without it', async () => {
    const probe = new Miniflare({
      modules: true,
      script: 'export default { fetch() { try { eval("1"); return new Response("allowed"); } catch (e) { return new Response(String(e)); } } };',
      compatibilityDate: '2026-04-01',
    });
    try {
      const answer = await (await probe.dispatchFetch('http://probe/')).text();
      expect(answer).toMatch(/EvalError|Code generation from strings disallowed/);
    } finally {
      await probe.dispose();
    }
  }, 60_000);

  // workerd refuses random values at module scope, so `new McpServer()` there must not draw its
  // default requestState key before the first request.
  it('starts a worker that makes its McpServer at module scope', async () => {
    const { projectDir } = await packedProject();
    const worker = await bundle(await stageEntry(projectDir, path.join(FIXTURES, 'worker-global.js'), FOLDER), 'workers');
    const global = new Miniflare({ modules: true, script: worker.code, compatibilityDate: '2026-04-01', log: new NoOpLog() });
    try {
      await global.ready;
    } finally {
      await global.dispose().catch(() => undefined);
    }
  }, 60_000);

  it('answers mcpgen Client over HTTP: a 2025-11-25 session and a 2026-07-28 request', async () => {
    const results = await client.exerciseHttp(url.href);
    expect(results).toEqual([
      { protocolVersion: '2025-11-25', era: 'stateful', tools: 1, sum: '5', session: true },
      { protocolVersion: '2026-07-28', era: 'stateless', tools: 1, sum: '5', session: false },
    ]);
    await recordRuntime('workerd', { workerd: 'miniflare 4 (workerd 2026-04-26)', http: results.map((result) => result.protocolVersion) });
  }, 60_000);

  // mcpgen/otel on Workers: the consumer project has no @opentelemetry packages (an optional
  // peer is not installed with mcpgen), so the bundle takes them from the repository's.
  it('traces a tools/call in a Worker that gives telemetry() its own tracer, in both eras', async () => {
    const { projectDir } = await packedProject();
    await stageEntry(projectDir, path.join(FIXTURES, 'server.js'), `${FOLDER}-otel`);
    const entry = await stageEntry(projectDir, path.join(FIXTURES, 'worker-otel.js'), `${FOLDER}-otel`);
    const built = await build({
      entryPoints: [entry],
      absWorkingDir: path.dirname(entry),
      bundle: true,
      write: false,
      format: 'esm',
      target: 'es2022',
      logLevel: 'silent',
      nodePaths: [path.join(ROOT, 'node_modules')],
      // The SDK swaps its Node files for browser ones through package.json's `browser` map,
      // which esbuild applies on the browser platform only.
      ...targetOptions('workers'),
      platform: 'browser',
    });
    const traced = new Miniflare({ modules: true, script: built.outputFiles![0]!.text, compatibilityDate: '2026-04-01', host: '127.0.0.1', port: 0 });
    try {
      const base = await traced.ready;
      const results = await client.exerciseHttp(new URL('/mcp', base).href);
      expect(results.map((result) => result.protocolVersion)).toEqual(['2025-11-25', '2026-07-28']);
      const spans = (await (await fetch(new URL('/spans', base))).json()) as { name: string; kind: number; attributes: Record<string, unknown> }[];
      const calls = spans.filter((span) => span.name === 'tools/call add');
      expect(calls.map((span) => span.attributes['mcp.protocol.version'])).toEqual(['2025-11-25', '2026-07-28']);
      for (const span of calls) {
        // SpanKind.SERVER: the Worker handled the request.
        expect(span.kind).toBe(1);
        expect(span.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'add', 'gen_ai.operation.name': 'execute_tool', 'network.transport': 'tcp' });
        expect(span.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
      }
      expect(calls[0]!.attributes['mcp.session.id']).toEqual(expect.any(String));
      expect(calls[1]!.attributes['mcp.session.id']).toBeUndefined();
    } finally {
      await traced.dispose();
    }
  }, 120_000);
});
