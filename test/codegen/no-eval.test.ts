/**
 * The generated validators work where the runtime forbids code generation from strings (CSP,
 * `--disallow-code-generation-from-strings`), and nothing under generated/ evaluates or loads
 * code dynamically.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './spec-examples.js';

const run = promisify(execFile);
const generatedDir = join(repoRoot, 'generated');

function generatedFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk(generatedDir);
  return out;
}

/** The child script: validates with two revisions and prints the outcomes as one JSON line. */
function childScript(): string {
  const url = (rev: string) => pathToFileURL(join(generatedDir, rev, 'index.js')).href;
  return `
import * as stateful from ${JSON.stringify(url('2025-11-25'))};
import * as stateless from ${JSON.stringify(url('2026-07-28'))};

const blocked = (make) => { try { make(); return false; } catch { return true; } };
const tools = Array.from({ length: 100 }, (_, i) => ({
  name: 'tool_' + i,
  description: 'Tool number ' + i,
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
}));
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const run = (validate, value) => {
  const valid = validate(value);
  return { valid, errors: valid ? [] : validate.errors.map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, params: e.params })) };
};
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tool_1', arguments: { query: 'x' } } };
const out = {
  evalBlocked: blocked(() => (0, eval)('1')),
  functionBlocked: blocked(() => new Function('return 1')),
  '2025-11-25': {
    validCall: run(stateful.validateCallToolRequest, call),
    invalidCall: run(stateful.validateCallToolRequest, { ...call, params: { arguments: {} } }),
    list: run(stateful.validateListToolsResult, { tools }),
    badList: run(stateful.validateListToolsResult, { tools: [...tools.slice(0, 99), { name: 'broken' }] }),
  },
  '2026-07-28': {
    validCall: run(stateless.validateCallToolRequest, { ...call, params: { ...call.params, _meta: meta } }),
    invalidCall: run(stateless.validateCallToolRequest, { ...call, jsonrpc: '1.0', params: { ...call.params, _meta: meta } }),
    list: run(stateless.validateListToolsResult, { resultType: 'complete', tools, ttlMs: 0, cacheScope: 'public' }),
    badList: run(stateless.validateListToolsResult, { resultType: 'complete', tools, cacheScope: 'public' }),
  },
};
process.stdout.write(JSON.stringify(out) + '\\n');
`;
}

describe('validators under --disallow-code-generation-from-strings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgen-no-eval-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('validate correctly in a child process that cannot eval', async () => {
    const script = join(dir, 'check.mts');
    writeFileSync(script, childScript());
    // cwd = repo root so `--import tsx` resolves the installed tsx; a non-zero exit rejects.
    const { stdout } = await run(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', script], { cwd: repoRoot });
    const result = JSON.parse(stdout) as Record<string, unknown>;
    const ok = { valid: true, errors: [] };
    expect(result).toEqual({
      evalBlocked: true,
      functionBlocked: true,
      '2025-11-25': {
        validCall: ok,
        invalidCall: { valid: false, errors: [{ instancePath: '/params', keyword: 'required', params: { missingProperty: 'name' } }] },
        list: ok,
        badList: { valid: false, errors: [{ instancePath: '/tools/99', keyword: 'required', params: { missingProperty: 'inputSchema' } }] },
      },
      '2026-07-28': {
        validCall: ok,
        invalidCall: { valid: false, errors: [{ instancePath: '/jsonrpc', keyword: 'const', params: { allowedValue: '2.0' } }] },
        list: ok,
        badList: { valid: false, errors: [{ instancePath: '', keyword: 'required', params: { missingProperty: 'ttlMs' } }] },
      },
    });
  });
});

describe('static scan of generated/', () => {
  const files = generatedFiles();

  it('covers every revision, the extensions and the validator support module', () => {
    const rel = files.map((f) => relative(generatedDir, f));
    expect(rel).toContain('shared/validator-support.ts');
    expect(rel).toContain('extensions/tasks/validators.ts');
    expect(rel).toContain('extensions/apps/validators.ts');
    // Each revision compiles its own validators; no shared module of compiled code remains.
    expect(rel).not.toContain('shared/validators.ts');
    for (const rev of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'draft']) expect(rel).toContain(`${rev}/validators.ts`);
  });

  it('no file contains `new Function`, `eval(` or `require(`', () => {
    const hits = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return ['new Function', 'eval(', 'require('].filter((needle) => text.includes(needle)).map((needle) => `${relative(generatedDir, file)}: ${needle}`);
    });
    expect(hits).toEqual([]);
  });

  it('no TypeScript file calls eval, Function or require in any spelling', () => {
    const hits: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.ts'))) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
          const callee = node.expression;
          const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : null;
          if (name === 'eval' || name === 'Function' || name === 'require') {
            const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
            hits.push(`${relative(generatedDir, file)}:${line + 1}: ${name}`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(hits).toEqual([]);
  });
});
