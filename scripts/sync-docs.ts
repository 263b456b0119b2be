/**
 * Fills the marked regions of README.md and docs/*.md from the files they name, so that every
 * code block in the docs is a type-checked, tested example (examples/…) and every table comes
 * from where it is measured (bench/results/results.md).
 *
 *   tsx scripts/sync-docs.ts          rewrite the docs
 *   tsx scripts/sync-docs.ts --check  exit 1 when a doc differs from what it would be rewritten to
 *
 * A region in Markdown:
 *
 *   <!-- sync: examples/tools/server.ts#server -->
 *   (generated; anything here is replaced)
 *   <!-- /sync -->
 *
 * The source is a path from the repository root, optionally with `#name`:
 * - `.ts` files: the lines between `// #region name` and `// #endregion name` (every such pair,
 *   joined; without `#name`, the whole file without its leading doc comment), dedented, with
 *   region markers of other names dropped and repository imports rewritten to the package's
 *   subpaths (`../../runtime/index.js` → `mcpgen`), in a ```ts fence.
 * - `.json` files: the whole file in a ```json fence.
 * - `.md` files: the section under the heading whose text is `name` (up to the next heading of
 *   the same or a higher level), as it is, without a fence.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Repository modules and the package subpath users import them from. */
const SUBPATHS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:\.\.?\/)+runtime\/index\.js$/, 'mcpgen'],
  [/^(?:\.\.?\/)+runtime\/node\.js$/, 'mcpgen/node'],
  [/^(?:\.\.?\/)+runtime\/http\.js$/, 'mcpgen/http'],
  [/^(?:\.\.?\/)+runtime\/advanced\.js$/, 'mcpgen/advanced'],
  [/^(?:\.\.?\/)+runtime\/testing\.js$/, 'mcpgen/testing'],
  [/^(?:\.\.?\/)+runtime\/ws\.js$/, 'mcpgen/ws'],
  [/^(?:\.\.?\/)+runtime\/ws-node\.js$/, 'mcpgen/ws/node'],
  [/^(?:\.\.?\/)+runtime\/features\/host\/index\.js$/, 'mcpgen/host'],
  [/^(?:\.\.?\/)+runtime\/features\/auth\/index\.js$/, 'mcpgen/auth'],
  [/^(?:\.\.?\/)+runtime\/features\/tasks\/index\.js$/, 'mcpgen/tasks'],
  [/^(?:\.\.?\/)+runtime\/features\/auth-server\/index\.js$/, 'mcpgen/auth-server'],
  [/^(?:\.\.?\/)+runtime\/features\/skills\/index\.js$/, 'mcpgen/skills'],
  [/^(?:\.\.?\/)+runtime\/features\/skills\/node\/index\.js$/, 'mcpgen/skills/node'],
  [/^(?:\.\.?\/)+runtime\/features\/apps\/index\.js$/, 'mcpgen/apps'],
  [/^(?:\.\.?\/)+runtime\/features\/otel\/index\.js$/, 'mcpgen/otel'],
  [/^(?:\.\.?\/)+generated\/([^/]+)\/index\.js$/, 'mcpgen/$1'],
];

const REGION = /^\s*\/\/ #(region|endregion)(?: (\S+))?\s*$/;
const BLOCK = /^<!-- sync: (.+?) -->\n[\s\S]*?^<!-- \/sync -->/gm;
const OPENING = /^<!-- sync: /gm;

export class SyncError extends Error {}

/** The text a `<!-- sync: source -->` block holds, without the markers. */
export function render(source: string, root: string = ROOT): string {
  const [path, name] = source.split('#', 2) as [string, string | undefined];
  let text: string;
  try {
    text = readFileSync(join(root, path), 'utf8');
  } catch {
    throw new SyncError(`${path}: cannot read the file`);
  }
  if (path.endsWith('.md')) {
    if (name === undefined) throw new SyncError(`${source}: a Markdown source needs #<heading>`);
    return `${markdownSection(text, name, source).trim()}\n`;
  }
  if (path.endsWith('.json')) return fence('json', text);
  if (path.endsWith('.ts')) return fence('ts', rewriteImports(name === undefined ? dedent(wholeFile(text)) : region(text, name, source)));
  throw new SyncError(`${source}: unsupported source type`);
}

function fence(language: string, body: string): string {
  return `\`\`\`${language}\n${body.replace(/\n+$/, '')}\n\`\`\`\n`;
}

/**
 * The lines inside every `#region name` … `#endregion name` pair, other markers dropped; each
 * pair is dedented on its own, and pairs are joined with a blank line.
 */
function region(text: string, name: string, source: string): string {
  const pieces: string[][] = [];
  let inside: string[] | undefined;
  for (const line of text.split('\n')) {
    const marker = REGION.exec(line);
    if (marker !== null) {
      if (marker[2] === name) {
        if ((marker[1] === 'region') === (inside !== undefined)) throw new SyncError(`${source}: unbalanced #${marker[1]} ${name}`);
        if (marker[1] === 'region') inside = [];
        else {
          pieces.push(inside!);
          inside = undefined;
        }
      }
      continue;
    }
    inside?.push(line);
  }
  if (inside !== undefined) throw new SyncError(`${source}: #region ${name} is not closed`);
  if (pieces.length === 0) throw new SyncError(`${source}: no // #region ${name}`);
  const texts = pieces.map((piece) => dedent(trimBlankEdges(piece).join('\n'))).filter((piece) => piece !== '');
  // A piece that closes a block (`} finally {`) continues the previous one; others start a paragraph.
  return texts.reduce((joined, piece) => (joined === '' ? piece : `${joined}${/^[}\])]/.test(piece) ? '\n' : '\n\n'}${piece}`), '');
}

/** The file without its leading doc comment and without region markers. */
function wholeFile(text: string): string {
  const body = text.replace(/^\/\*\*[\s\S]*?\*\/\n/, '');
  return trimBlankEdges(body.split('\n').filter((line) => !REGION.test(line))).join('\n');
}

function trimBlankEdges(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === '') start++;
  while (end > start && lines[end - 1]!.trim() === '') end--;
  // Inner runs of blank lines (left where markers were) collapse to one.
  return lines.slice(start, end).filter((line, index, all) => line.trim() !== '' || all[index - 1]?.trim() !== '');
}

function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((line) => line.slice(cut)).join('\n');
}

function rewriteImports(text: string): string {
  return text.replace(/(from |import\()'([^']+)'/g, (whole, prefix: string, specifier: string) => {
    for (const [pattern, replacement] of SUBPATHS) {
      if (pattern.test(specifier)) return `${prefix}'${specifier.replace(pattern, replacement)}'`;
    }
    if (specifier.startsWith('.') && /(?:runtime|generated)\//.test(specifier)) throw new SyncError(`import of ${specifier} has no package subpath`);
    return whole;
  });
}

/** The body of the section headed `heading`, up to the next heading of the same or a higher level. */
function markdownSection(text: string, heading: string, source: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '').trim() === heading);
  if (start === -1) throw new SyncError(`${source}: no heading "${heading}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  let end = start + 1;
  while (end < lines.length && !(/^#+ /.test(lines[end]!) && /^#+/.exec(lines[end]!)![0].length <= level)) end++;
  return lines.slice(start + 1, end).join('\n');
}

/** A document with every sync block filled in. */
export function syncDocument(text: string, root: string = ROOT): string {
  const opened = [...text.matchAll(OPENING)].length;
  const blocks = [...text.matchAll(BLOCK)].length;
  if (opened !== blocks) throw new SyncError(`${opened - blocks} <!-- sync: … --> marker(s) without a matching <!-- /sync --> on the next lines`);
  return text.replace(BLOCK, (_block, source: string) => `<!-- sync: ${source} -->\n${render(source, root)}<!-- /sync -->`);
}

/** README.md and every Markdown file directly in docs/ (docs/changes/ is generated by codegen). */
export function documents(root: string = ROOT): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(root, 'docs', name));
  return [join(root, 'README.md'), ...docs];
}

function main(args: readonly string[]): number {
  const check = args.includes('--check');
  const stale: string[] = [];
  let blocks = 0;
  for (const file of documents()) {
    const text = readFileSync(file, 'utf8');
    let synced: string;
    try {
      synced = syncDocument(text);
    } catch (error) {
      if (!(error instanceof SyncError)) throw error;
      console.error(`sync-docs: ${relative(ROOT, file)}: ${error.message}`);
      return 1;
    }
    blocks += [...text.matchAll(BLOCK)].length;
    if (synced === text) continue;
    stale.push(relative(ROOT, file));
    if (!check) writeFileSync(file, synced);
  }
  if (check && stale.length > 0) {
    console.error(`sync-docs: out of date with the examples: ${stale.join(', ')}; run \`make docs\``);
    return 1;
  }
  console.log(`sync-docs: ${blocks} blocks ${check ? 'checked' : 'synced'}${!check && stale.length > 0 ? `, rewrote ${stale.join(', ')}` : ''}`);
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
