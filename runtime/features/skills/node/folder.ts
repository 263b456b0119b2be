/**
 * Skills from a folder (Node only): every directory under the root that holds a SKILL.md is a
 * skill, its path the directory's path below the root (`acme/billing/refunds`), its files
 * everything below it, nested skills' files included. The walk is bounded (depth, files,
 * bytes per skill), skips dot-files, and refuses symbolic links that lead outside the root.
 */
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { SdkError } from '../../../core/errors.js';
import type { SkillCatalog, SkillDefinition } from '../catalog.js';
import { MAX_SKILL_BYTES, MAX_SKILL_RESOURCES, SKILL_FILE, type Skill } from '../wire.js';

/** Options of {@link loadSkillFolder}. */
export interface SkillFolderOptions {
  /** Deepest directory level walked below the root (default 16). */
  readonly maxDepth?: number;
  /** Most files walked in the whole folder (default 20,000). */
  readonly maxFiles?: number;
  /** Most skills the folder may hold (default 1,000). */
  readonly maxSkills?: number;
}

interface WalkedFile {
  /** Path below the root, `/`-separated. */
  readonly rel: string;
  readonly abs: string;
  readonly size: number;
}

function refuse(message: string): SdkError {
  return new SdkError('INVALID_ARGUMENT', message);
}

function inside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The skills of the folder `root`, read into memory. Throws SdkError('INVALID_ARGUMENT') naming
 * the offending path for a symbolic link out of the root, a skill over the extension's limits
 * (512 files, 16 MiB) or a folder over the walk's bounds.
 *
 * @example
 * ```ts
 * import { loadSkillFolder } from 'mcpgen/skills/node';
 *
 * const definitions = await loadSkillFolder('./skills');
 * console.log(definitions.map((skill) => skill.path)); // e.g. ['git-workflow', 'pdf-processing']
 * ```
 */
export async function loadSkillFolder(root: string, options: SkillFolderOptions = {}): Promise<SkillDefinition[]> {
  const maxDepth = options.maxDepth ?? 16;
  const maxFiles = options.maxFiles ?? 20_000;
  const maxSkills = options.maxSkills ?? 1_000;
  const realRoot = await realpath(root);
  const files: WalkedFile[] = [];
  const skillDirs: string[] = [];
  const visited = new Set<string>([realRoot]);

  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (depth > maxDepth) throw refuse(`${dir} is nested deeper than ${maxDepth} levels below ${root}`);
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const abs = path.join(dir, entry.name);
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      let info = await lstat(abs);
      if (info.isSymbolicLink()) {
        const target = await realpath(abs).catch(() => undefined);
        if (target === undefined || !inside(realRoot, target)) throw refuse(`${abs} is a symbolic link that leads outside ${root}`);
        info = await stat(abs);
        if (info.isDirectory()) {
          if (visited.has(target)) continue; // a link back up the tree: walked already
          visited.add(target);
        }
      }
      if (info.isDirectory()) {
        await walk(abs, childRel, depth + 1);
      } else if (info.isFile()) {
        if (files.length >= maxFiles) throw refuse(`${root} holds more than ${maxFiles} files (maxFiles)`);
        if (info.size > MAX_SKILL_BYTES) throw refuse(`${abs} is ${info.size} bytes, more than a whole skill may hold (${MAX_SKILL_BYTES})`);
        files.push({ rel: childRel, abs, size: info.size });
        if (entry.name === SKILL_FILE) {
          if (rel === '') throw refuse(`${abs}: a SKILL.md belongs in a directory named after its skill, not at the root of ${root}`);
          if (skillDirs.length >= maxSkills) throw refuse(`${root} holds more than ${maxSkills} skills (maxSkills)`);
          skillDirs.push(rel);
        }
      }
    }
  };
  await walk(realRoot, '', 0);

  const definitions: SkillDefinition[] = [];
  for (const dir of skillDirs) {
    const own = files.filter((file) => file.rel.startsWith(`${dir}/`));
    if (own.length > MAX_SKILL_RESOURCES) throw refuse(`skill ${dir} has ${own.length} files; the limit is ${MAX_SKILL_RESOURCES}`);
    const total = own.reduce((sum, file) => sum + file.size, 0);
    if (total > MAX_SKILL_BYTES) throw refuse(`skill ${dir} holds ${total} bytes; the limit is ${MAX_SKILL_BYTES}`);
    const contents: Record<string, Uint8Array> = {};
    let read = 0;
    for (const file of own) {
      const bytes = new Uint8Array(await readFile(file.abs));
      read += bytes.length;
      // A file that grew between the walk and the read still counts against the limit.
      if (read > MAX_SKILL_BYTES) throw refuse(`skill ${dir} holds more than ${MAX_SKILL_BYTES} bytes`);
      contents[file.rel.slice(dir.length + 1)] = bytes;
    }
    definitions.push({ path: dir, files: contents });
  }
  return definitions;
}

/**
 * Makes `catalog` serve exactly the skills of folder `root`: adds new and changed ones and
 * removes those no longer there, so connected clients hear of the change. Call it again when
 * the folder changes. Resolves with the served entries.
 *
 * @example
 * ```ts
 * import { SkillsExtension } from 'mcpgen/skills';
 * import { syncSkillFolder } from 'mcpgen/skills/node';
 *
 * const skills = new SkillsExtension();
 * await syncSkillFolder(skills.catalog, './skills');
 * ```
 */
export async function syncSkillFolder(catalog: SkillCatalog, root: string, options: SkillFolderOptions = {}): Promise<Skill[]> {
  const definitions = await loadSkillFolder(root, options);
  const served: Skill[] = [];
  for (const definition of definitions) served.push(await catalog.add(definition));
  const keep = new Set(served.map((entry) => entry.uri));
  for (const entry of catalog.entries()) if (!keep.has(entry.uri)) catalog.remove(entry.uri);
  return served;
}
