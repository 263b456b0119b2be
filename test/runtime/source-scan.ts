/**
 * Reading runtime/ sources for the tests that hold the code to a rule: the files, and their code
 * with comments blanked out so that doc comments and their @example blocks never count.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Every `.ts` file under `dir`, in a stable order. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return path.endsWith('.ts') ? [path] : [];
    });
}

/** The code of a TypeScript source with comments blanked out (line structure and strings kept). */
export function stripComments(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    const next = source[i + 1];
    if (char === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (char === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (char === "'" || char === '"' || char === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== char) j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else {
      out += char;
      i++;
    }
  }
  return out;
}

/** What `find` reports for each source under runtime/, given its path from the repository root and its text. */
export function scanRuntime(find: (file: string, source: string) => string[]): string[] {
  return sourceFiles(join(repositoryRoot, 'runtime')).flatMap((path) => find(relative(repositoryRoot, path), readFileSync(path, 'utf8')));
}

/** The lines of a source's code (comments blanked out) that `test` accepts, as `file:line: text`. */
export function linesWhere(file: string, source: string, test: (line: string) => boolean): string[] {
  return stripComments(source)
    .split('\n')
    .flatMap((line, index) => (test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}
