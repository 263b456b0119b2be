// scripts/sync-docs.ts: regions of example files become the docs' code blocks, with package
// import paths; Markdown sections are copied; broken markers are refused.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documents, render, SyncError, syncDocument } from '../../scripts/sync-docs.js';

const root = mkdtempSync(join(tmpdir(), 'sync-docs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

file('examples/a/server.ts', `/**
 * Header comment, left out of whole-file blocks.
 */
// #region server
import { McpServer } from '../../runtime/index.js';
import { StdioServerTransport } from '../../runtime/node.js';
import { revisionModule } from '../../generated/2025-06-18/index.js';
// #endregion server
import { helper } from '../shared/harness.js';

export function build() {
  // #region server
  const mcp = new McpServer({ name: 'x', version: '1' });
  // #region other
  mcp.registerTool('t', {}, () => ({ content: [] }));
  // #endregion other
  // #endregion server
  return helper(mcp, StdioServerTransport, revisionModule);
}
`);
file('bench/results.md', '# Results\n\n## Targets\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Next\n\nmore\n');
file('examples/host/.mcp.json', '{ "mcpServers": {} }\n');

describe('render', () => {
  it('joins the pieces of a region, dedents each, drops other markers and rewrites repository imports', () => {
    expect(render('examples/a/server.ts#server', root)).toBe(
      [
        '```ts',
        "import { McpServer } from 'mcpgen';",
        "import { StdioServerTransport } from 'mcpgen/node';",
        "import { revisionModule } from 'mcpgen/2025-06-18';",
        '',
        "const mcp = new McpServer({ name: 'x', version: '1' });",
        "mcp.registerTool('t', {}, () => ({ content: [] }));",
        '```',
        '',
      ].join('\n'),
    );
  });

  it('renders a whole file without its header comment', () => {
    const text = render('examples/a/server.ts', root);
    expect(text.startsWith("```ts\nimport { McpServer } from 'mcpgen';")).toBe(true);
    expect(text).not.toContain('Header comment');
    expect(text).not.toContain('#region');
  });

  it('copies a Markdown section up to the next heading of its level, and JSON files whole', () => {
    expect(render('bench/results.md#Targets', root)).toBe('| a | b |\n|---|---|\n| 1 | 2 |\n');
    expect(render('examples/host/.mcp.json', root)).toBe('```json\n{ "mcpServers": {} }\n```\n');
  });

  it('refuses missing regions, files and headings', () => {
    expect(() => render('examples/a/server.ts#nope', root)).toThrow(SyncError);
    expect(() => render('examples/missing.ts', root)).toThrow(/cannot read/);
    expect(() => render('bench/results.md#Nope', root)).toThrow(/no heading/);
  });
});

describe('syncDocument', () => {
  it('fills blocks, is stable, and leaves the rest of the document alone', () => {
    const stale = 'Intro `<!-- sync: x -->` in prose.\n\n<!-- sync: bench/results.md#Targets -->\nold\n<!-- /sync -->\n\nOutro\n';
    const synced = syncDocument(stale, root);
    expect(synced).toBe('Intro `<!-- sync: x -->` in prose.\n\n<!-- sync: bench/results.md#Targets -->\n| a | b |\n|---|---|\n| 1 | 2 |\n<!-- /sync -->\n\nOutro\n');
    expect(syncDocument(synced, root)).toBe(synced);
  });

  it('refuses an opening marker without its closing one', () => {
    expect(() => syncDocument('<!-- sync: bench/results.md#Targets -->\ntext\n', root)).toThrow(/without a matching/);
  });
});

describe('the repository', () => {
  it('has every docs block in sync with its source', () => {
    for (const doc of documents()) {
      const text = readFileSync(doc, 'utf8');
      expect(syncDocument(text), doc).toBe(text);
    }
  });
});
