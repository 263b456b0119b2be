/**
 * Schemas given at run time are interpreted, never turned into code, so that the default
 * validator and the URI template matcher run on Workers and under strict CSP. This scans the
 * syntax trees of their sources for every way of generating code from strings.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const runtime = fileURLToPath(new URL('../../../runtime/', import.meta.url));
const scanned = ['json-schema', 'features/uri-template', 'features/mcp-server', 'peers/client-helpers'];

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((entry) => files(join(path, entry)));
}

/** Code-from-strings constructs in one file, as `file:line what`. */
function findings(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const report = (node: ts.Node, what: string): void => {
    out.push(`${relative(runtime, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && (node.text === 'eval' || node.text === 'Function') && !ts.isPropertyAssignment(node.parent)) report(node, node.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) report(node, 'dynamic import');
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && /^set(Timeout|Interval)$/.test(node.expression.text) && node.arguments[0] !== undefined && ts.isStringLiteralLike(node.arguments[0])) {
      report(node, 'string timer');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

it('finds no eval, Function constructor, dynamic import or string timer in the schema and template code', () => {
  const sources = scanned.flatMap((entry) => files(join(runtime, entry))).filter((file) => file.endsWith('.ts'));
  expect(sources.length).toBeGreaterThan(10);
  expect(sources.flatMap(findings)).toEqual([]);
});

it('would notice them', () => {
  const probe = fileURLToPath(new URL('./fixtures/uses-eval.ts', import.meta.url));
  expect(findings(probe).map((finding) => finding.replace(/^.*:(\d+) /, '$1 '))).toEqual(['1 eval', '2 Function', '3 dynamic import', '4 string timer']);
});
