/**
 * Type-checks runtime/ against a generation that exists only in memory, before `spec add` or
 * `spec update` writes it: the new generated/ files are overlaid as in-memory source files
 * (ts-morph) on top of the repository as it is on disk, so a pin the runtime cannot compile
 * against is refused with the compiler's diagnostics and nothing is written.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Project, ts } from 'ts-morph';

/** One compiler diagnostic, relative to the repository root. */
export interface RuntimeDiagnostic {
  /** `runtime/features/x.ts`, or `generated/…` for a generated file; '' when it has no file. */
  readonly file: string;
  /** 1-based; 0 when the diagnostic has no position. */
  readonly line: number;
  readonly message: string;
}

/** The build's tsconfig (generated/ and runtime/), which `make build` compiles. */
const BUILD_CONFIG = 'tsconfig.build.json';

function typeScriptFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...typeScriptFiles(path));
    else if (entry.endsWith('.ts')) out.push(path);
  }
  return out;
}

/**
 * Whether the root has a runtime to check: the codegen fixtures' throw-away roots hold only
 * codegen/ and spec/, and have nothing to compile.
 */
export function hasRuntime(root: string): boolean {
  return existsSync(join(root, 'runtime')) && existsSync(join(root, BUILD_CONFIG));
}

/**
 * Compiles runtime/ (from disk) with `generated` (paths relative to generated/, new contents)
 * in place of generated/ and returns the errors, empty when it compiles. The generation of a
 * `spec` command covers every path of the current generated/, so no file on disk under
 * generated/ is reachable in its place.
 */
export function typeCheckRuntime(root: string, generated: ReadonlyMap<string, string>): RuntimeDiagnostic[] {
  // ts-morph creates source files without Node's package.json scope, so under NodeNext every
  // file would count as CommonJS (and `import.meta` as an error); ESNext with bundler
  // resolution reads the same `.js` specifiers as the build does.
  const project = new Project({
    tsConfigFilePath: join(root, BUILD_CONFIG),
    skipAddingFilesFromTsConfig: true,
    compilerOptions: { noEmit: true, declaration: false, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  });
  for (const [path, content] of generated) {
    if (path.endsWith('.ts')) project.createSourceFile(join(root, 'generated', path), content, { overwrite: true });
  }
  const runtime = project.addSourceFilesAtPaths(typeScriptFiles(join(root, 'runtime')));
  const program = project.getProgram().compilerObject;
  // The runtime's files are checked in full; generated files only as far as the runtime uses
  // them (their own consistency is `make check`'s and the build's), which keeps this to seconds.
  const found = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...runtime.flatMap((file) => {
      const compiled = program.getSourceFile(file.getFilePath())!;
      return [...program.getSyntacticDiagnostics(compiled), ...program.getSemanticDiagnostics(compiled)];
    }),
  ];
  return found
    .filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error)
    .map((diagnostic) => {
      const file = diagnostic.file;
      return {
        file: file === undefined ? '' : relative(root, file.fileName),
        line: file === undefined || diagnostic.start === undefined ? 0 : file.getLineAndCharacterOfPosition(diagnostic.start).line + 1,
        message: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '),
      };
    });
}

/** Diagnostics one a line, `file:line: message`, at most `limit` of them. */
export function formatDiagnostics(diagnostics: readonly RuntimeDiagnostic[], limit = 20): string {
  const lines = diagnostics.slice(0, limit).map((d) => `  ${d.file === '' ? '(no file)' : `${d.file}:${d.line}`}: ${d.message}`);
  if (diagnostics.length > limit) lines.push(`  … and ${diagnostics.length - limit} more`);
  return lines.join('\n');
}
