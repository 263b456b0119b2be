/**
 * The doc comments of the package's runtime-neutral and Node entries (`mcpgen`, `mcpgen/node`,
 * `mcpgen/http`, `mcpgen/advanced`, `mcpgen/auth-server`): every exported value has one, the main entry points carry
 * an `@example`, and every `@example` on any export of those entries (its own doc comment or
 * one of its members') type-checks against the real sources, with the package's subpaths
 * mapped onto them through the exports map, so that the documented usage cannot drift from
 * the API. Examples are whole programs: they import what they use from the package.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_OPTIONS as OPTIONS, ROOT, typeCheckExamples } from './doc-examples.js';

const ENTRIES = ['runtime/index.ts', 'runtime/node.ts', 'runtime/http.ts', 'runtime/advanced.ts', 'runtime/testing.ts', 'runtime/features/auth-server/index.ts', 'runtime/ws.ts', 'runtime/ws-node.ts'];

/** Values a reader meets first; each shows its use in an `@example`. */
const MAIN_ENTRY_POINTS: Readonly<Record<string, readonly string[]>> = {
  'runtime/index.ts': ['McpServer', 'Client', 'Server', 'createMcpHttpHandler', 'StreamableHttpClientTransport', 'connectWithFallback', 'createLinkedPair', 'ProtocolError', 'UriTemplate'],
  'runtime/node.ts': ['StdioServerTransport', 'StdioClientTransport', 'createMcpNodeServer', 'toNodeListener', 'nodeHttpClient'],
  'runtime/features/auth-server/index.ts': ['createAuthorizationServer', 'LocalAuthorizationProvider', 'ProxyAuthorizationProvider', 'InMemoryAuthorizationStore'],
  'runtime/ws.ts': ['WebSocketClientTransport'],
  'runtime/ws-node.ts': ['createMcpWebSocketServer'],
};

interface Documented {
  readonly entry: string;
  readonly name: string;
  readonly isValue: boolean;
  /** The doc comment right above the declaration, if any. */
  readonly doc: string | undefined;
  /** The `@example` blocks of the declaration and its members. */
  readonly examples: string[];
}

/** The statement a declaration's doc comment sits on. */
function statementOf(node: ts.Node): ts.Node {
  if (ts.isVariableDeclaration(node)) return node.parent.parent;
  if (ts.isNamespaceExport(node) || ts.isExportSpecifier(node)) return ts.findAncestor(node, ts.isExportDeclaration) ?? node;
  return node;
}

function leadingDoc(node: ts.Node): string | undefined {
  const text = node.getSourceFile().getFullText();
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  const last = ranges.at(-1);
  const comment = last === undefined ? undefined : text.slice(last.pos, last.end);
  return comment?.startsWith('/**') ? comment : undefined;
}

function examplesIn(text: string): string[] {
  const pattern = /@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g;
  return [...text.matchAll(pattern)].map((match) => match[1]!.split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n'));
}

/** The declarations behind an export: the real ones, or the `export * as` that names a module. */
function declarationsOf(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Node[] {
  let current = symbol;
  let namespaceExport: ts.Node | undefined;
  while (current.flags & ts.SymbolFlags.Alias) {
    namespaceExport = current.declarations?.find(ts.isNamespaceExport) ?? namespaceExport;
    current = checker.getImmediateAliasedSymbol(current) ?? current;
    if (current === symbol) break;
  }
  if (current.flags & ts.SymbolFlags.ValueModule && namespaceExport !== undefined) return [namespaceExport];
  return current.declarations ?? [];
}

function inventory(): Documented[] {
  const program = ts.createProgram(ENTRIES.map((entry) => join(ROOT, entry)), OPTIONS);
  const checker = program.getTypeChecker();
  const documented: Documented[] = [];
  for (const entry of ENTRIES) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(join(ROOT, entry))!)!;
    for (const symbol of checker.getExportsOfModule(module)) {
      const specifier = symbol.declarations?.[0];
      const typeOnly = specifier !== undefined && ts.isExportSpecifier(specifier) && (specifier.isTypeOnly || specifier.parent.parent.isTypeOnly);
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const statements = declarationsOf(checker, symbol).map(statementOf);
      const docs = statements.map(leadingDoc).filter((doc) => doc !== undefined);
      documented.push({
        entry,
        name: symbol.name,
        isValue: !typeOnly && (target.flags & ts.SymbolFlags.Value) !== 0,
        doc: docs[0],
        examples: [...new Set(statements.flatMap((statement) => examplesIn(statement.getFullText())))],
      });
    }
  }
  return documented;
}

let documented: Documented[];

describe('doc comments of the package entries', () => {
  beforeAll(() => {
    documented = inventory();
  }, 120_000);

  it('exist on every exported value', () => {
    const values = documented.filter((entry) => entry.isValue);
    expect(values.length).toBeGreaterThan(50);
    expect(values.filter((entry) => entry.doc === undefined).map((entry) => `${entry.entry}: ${entry.name}`)).toEqual([]);
  });

  it('show the main entry points in an @example', () => {
    const missing = Object.entries(MAIN_ENTRY_POINTS).flatMap(([entry, names]) =>
      names.filter((name) => !documented.some((item) => item.entry === entry && item.name === name && item.examples.length > 0)).map((name) => `${entry}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('hold @examples that import from the package and type-check', () => {
    const seen = new Set<string>();
    const examples = documented.flatMap((item) =>
      item.examples.filter((code) => !seen.has(code) && seen.add(code)).map((code, index) => ({ name: `${item.entry} ${item.name}#${index + 1}`, code })),
    );
    expect(examples.length).toBeGreaterThanOrEqual(20);
    expect(examples.filter((example) => /from '\.{1,2}\//.test(example.code)).map((example) => example.name)).toEqual([]);
    const problems = typeCheckExamples(examples.map((example) => ({ ...example, code: `${example.code}\nexport {};\n` })), 'index-example');
    expect(problems).toEqual([]);
  }, 120_000);
});
