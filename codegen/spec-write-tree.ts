/**
 * Writes codegen output so a failure never leaves a half-written folder: files go to a sibling
 * temp folder (`<dir>.tmp-XXXXXX`) first, which then replaces the folder by rename. A single file
 * is written the same way, through `<file>.tmp-<pid>`.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface ReplaceTreeOptions {
  /** Start from a copy of the current folder and overwrite only `files` (a partial regeneration). */
  readonly keepExisting?: boolean;
}

/** Replaces `dir` with exactly `files` (paths relative to `dir`), or adds them to a copy of it. */
export function replaceTree(dir: string, files: ReadonlyMap<string, string>, options: ReplaceTreeOptions = {}): void {
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = mkdtempSync(`${dir}.tmp-`);
  try {
    if (options.keepExisting === true && existsSync(dir)) cpSync(dir, tmp, { recursive: true });
    for (const [path, content] of files) {
      mkdirSync(dirname(join(tmp, path)), { recursive: true });
      writeFileSync(join(tmp, path), content);
    }
    swapIn(tmp, dir);
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** Moves the finished temp folder into place; the old folder is kept aside until that succeeded. */
function swapIn(tmp: string, dir: string): void {
  if (!existsSync(dir)) {
    renameSync(tmp, dir);
    return;
  }
  const old = `${dir}.old-${tmp.slice(-6)}`;
  renameSync(dir, old);
  try {
    renameSync(tmp, dir);
  } catch (error) {
    renameSync(old, dir);
    throw error;
  }
  rmSync(old, { recursive: true, force: true });
}

/** Writes one file through a temp file and a rename, so readers see the old or the new bytes. */
export function writeFileAtomic(file: string, content: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
