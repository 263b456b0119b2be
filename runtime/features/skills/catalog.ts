/**
 * The skills a server serves: each one's files, its entry (frontmatter, digests, sizes) and
 * the directory tree its files form, kept ready so that `skills/list`, `skills/get`,
 * `resources/read`, `resources/list` and `resources/directory/read` are lookups. Skills are
 * checked when added: a SKILL.md with frontmatter whose `name` is the last segment of the
 * skill path, names by the Agent Skills rules, and the extension's per-skill limits.
 */
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { SdkError } from '../../core/errors.js';
import { jsonEqual } from '../../json-schema/json-values.js';
import { sha256Digest, textOf, toBase64, utf8 } from './digest.js';
import { parseFrontmatter } from './frontmatter.js';
import { DIRECTORY_MIME_TYPE, MAX_SKILL_BYTES, MAX_SKILL_RESOURCES, SKILL_FILE, SKILL_NAME, type Skill, type SkillFrontmatter } from './wire.js';

/** A skill to serve: where it lives in the skill namespace and its files. */
export interface SkillDefinition {
  /** The skill path: `git-workflow`, or `acme/billing/refunds` (prefix `acme/billing`, name `refunds`). */
  readonly path: string;
  /** Files by path inside the skill (`/`-separated), SKILL.md included: text, or raw bytes. */
  readonly files: Readonly<Record<string, string | Uint8Array>>;
  /** Mime types by file path, where the default by extension does not fit. */
  readonly mimeTypes?: Readonly<Record<string, string>>;
}

/** Options of a {@link SkillCatalog}. */
export interface SkillCatalogOptions {
  /** The URI scheme (default `skill`). */
  readonly scheme?: string;
  /** Most skills the catalog holds (default 10,000); adding one more throws. */
  readonly maxSkills?: number;
}

/** One file as the catalog serves it. */
interface StoredFile {
  readonly uri: string;
  readonly path: string;
  readonly bytes: Uint8Array;
  /** The bytes as text when they are UTF-8 and the type is textual; blobs otherwise. */
  readonly text: string | undefined;
  readonly mimeType: string;
  readonly digest: string;
}

interface StoredSkill {
  readonly entry: Skill;
  readonly root: string;
  readonly files: readonly StoredFile[];
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown', markdown: 'text/markdown', txt: 'text/plain', py: 'text/x-python', js: 'text/javascript', mjs: 'text/javascript', ts: 'text/x-typescript',
  sh: 'text/x-shellscript', json: 'application/json', yaml: 'application/yaml', yml: 'application/yaml', toml: 'application/toml', html: 'text/html', css: 'text/css',
  csv: 'text/csv', xml: 'application/xml', svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', pdf: 'application/pdf',
};

const TEXTUAL = /^(?:text\/|application\/(?:json|yaml|toml|xml)|image\/svg\+xml)/;
/** A path segment of a skill path or file path: no empty, `.` or `..` segments, no backslashes or control characters. */
const SEGMENT = /^(?!\.\.?$)[^/\\\u0000-\u001f?#]+$/;

function mimeTypeOf(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  return dot === -1 ? undefined : MIME_TYPES[path.slice(dot + 1).toLowerCase()];
}

function checkPath(path: string, what: string): string[] {
  const segments = path.split('/');
  if (path === '' || !segments.every((segment) => SEGMENT.test(segment))) throw new SdkError('INVALID_ARGUMENT', `${what} ${JSON.stringify(path)} has an empty, ".", ".." or invalid segment`);
  return segments;
}

/** A page of `items` after `cursor` (the key of the last item of the previous page). */
export function pageOf<T>(items: readonly T[], key: (item: T) => string, cursor: string | undefined, size: number): { items: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : items.findIndex((item) => key(item) > cursor);
  const from = start === -1 ? items.length : start;
  const page = items.slice(from, from + size);
  return from + size < items.length ? { items: page, nextCursor: key(page[page.length - 1]!) } : { items: page };
}

/**
 * The skills one server (or many) serves. Adding a skill with the path of a served one
 * replaces it; listeners hear of every change.
 *
 * @example
 * ```ts
 * import { SkillCatalog } from 'mcpgen/skills';
 *
 * const catalog = new SkillCatalog();
 * const entry = await catalog.add({
 *   path: 'git-workflow',
 *   files: { 'SKILL.md': '---\nname: git-workflow\ndescription: Branch and commit the way this team does\n---\n\nUse short branches.\n' },
 * });
 * entry.uri; // 'skill://git-workflow/SKILL.md'
 * ```
 */
export class SkillCatalog {
  /** The URI scheme of the skills (`skill`). */
  readonly scheme: string;
  private readonly maxSkills: number;
  private readonly skills = new Map<string, StoredSkill>();
  private readonly listeners = new Set<() => void>();
  /** Derived on change: entries in URI order, files by URI and directory children by URI. */
  private sorted: readonly Skill[] = [];
  private byUri = new Map<string, Skill>();
  private files = new Map<string, StoredFile>();
  private directories = new Map<string, Map<string, Stateful.Resource>>();

  constructor(options: SkillCatalogOptions = {}) {
    this.scheme = options.scheme ?? 'skill';
    this.maxSkills = options.maxSkills ?? 10_000;
    if (!/^[a-z][a-z0-9+.-]*$/.test(this.scheme)) throw new SdkError('INVALID_ARGUMENT', `${JSON.stringify(this.scheme)} is not a URI scheme`);
  }

  /** Checks a skill, computes its digests and serves it; resolves with its entry. */
  async add(definition: SkillDefinition): Promise<Skill> {
    const segments = checkPath(definition.path, 'skill path');
    const name = segments[segments.length - 1]!;
    if (!SKILL_NAME.test(name)) throw new SdkError('INVALID_ARGUMENT', `skill name ${JSON.stringify(name)} breaks the naming rules (1-64 lowercase letters, digits and single hyphens, no hyphen at either end)`);
    if (!this.skills.has(definition.path) && this.skills.size >= this.maxSkills) throw new SdkError('INVALID_ARGUMENT', `the catalog already holds ${this.maxSkills} skills (maxSkills)`);
    const paths = Object.keys(definition.files).sort();
    if (!paths.includes(SKILL_FILE)) throw new SdkError('INVALID_ARGUMENT', `skill ${definition.path} has no ${SKILL_FILE} at its root`);
    if (paths.length > MAX_SKILL_RESOURCES) throw new SdkError('INVALID_ARGUMENT', `skill ${definition.path} has ${paths.length} files; the limit is ${MAX_SKILL_RESOURCES}`);
    const root = `${this.scheme}://${definition.path}`;
    let total = 0;
    const files: StoredFile[] = [];
    for (const path of paths) {
      checkPath(path, `file path in skill ${definition.path}:`);
      const content = definition.files[path]!;
      const bytes = typeof content === 'string' ? utf8(content) : content;
      total += bytes.length;
      if (total > MAX_SKILL_BYTES) throw new SdkError('INVALID_ARGUMENT', `skill ${definition.path} is larger than ${MAX_SKILL_BYTES} bytes`);
      const mimeType = definition.mimeTypes?.[path] ?? mimeTypeOf(path) ?? (typeof content === 'string' || textOf(bytes) !== undefined ? 'text/plain' : 'application/octet-stream');
      const text = typeof content === 'string' ? content : TEXTUAL.test(mimeType) ? textOf(bytes) : undefined;
      files.push({ uri: `${root}/${path}`, path, bytes, text, mimeType, digest: await sha256Digest(bytes) });
    }
    const manifest = files.find((file) => file.path === SKILL_FILE)!;
    if (manifest.text === undefined) throw new SdkError('INVALID_ARGUMENT', `${manifest.uri} is not UTF-8 text`);
    let frontmatter: Record<string, unknown>;
    try {
      frontmatter = parseFrontmatter(manifest.text);
    } catch (error) {
      throw new SdkError('INVALID_ARGUMENT', `${manifest.uri}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (frontmatter.name !== name) throw new SdkError('INVALID_ARGUMENT', `${manifest.uri}: frontmatter name ${JSON.stringify(frontmatter.name)} must equal the last segment of the skill path (${name})`);
    if (typeof frontmatter.description !== 'string' || frontmatter.description === '') throw new SdkError('INVALID_ARGUMENT', `${manifest.uri}: frontmatter needs a non-empty description`);
    const entry: Skill = {
      uri: manifest.uri,
      frontmatter: frontmatter as SkillFrontmatter,
      resources: files.map((file) => ({ uri: file.uri, digest: file.digest, size: file.bytes.length })),
    };
    const previous = this.skills.get(definition.path);
    // The same content again (a folder synced twice) is no change to announce.
    if (previous !== undefined && jsonEqual(previous.entry, entry) && previous.files.every((file, i) => file.mimeType === files[i]!.mimeType)) return previous.entry;
    this.skills.set(definition.path, { entry, root, files });
    this.changed();
    return entry;
  }

  /** Stops serving the skill at `path` (or whose SKILL.md is at that URI); returns whether it was served. */
  remove(pathOrUri: string): boolean {
    const path = [...this.skills].find(([key, skill]) => key === pathOrUri || skill.entry.uri === pathOrUri)?.[0];
    if (path === undefined) return false;
    this.skills.delete(path);
    this.changed();
    return true;
  }

  /** Every served skill's entry, in URI order. */
  entries(): readonly Skill[] {
    return this.sorted;
  }

  /** The entry of the skill whose SKILL.md is at `uri`. */
  get(uri: string): Skill | undefined {
    return this.byUri.get(uri);
  }

  /** The `resources/read` result of a served file, or undefined. */
  read(uri: string): Stateful.ReadResourceResult | undefined {
    const file = this.files.get(uri);
    if (file === undefined) return undefined;
    const content = file.text !== undefined ? { uri, mimeType: file.mimeType, text: file.text } : { uri, mimeType: file.mimeType, blob: toBase64(file.bytes) };
    return { contents: [content] };
  }

  /** Every served file as `resources/list` shows it, in URI order (SKILL.md named after its frontmatter). */
  resources(): Stateful.Resource[] {
    return [...this.files.values()].map((file) => this.describe(file));
  }

  /** The direct children of directory resource `uri` (a skill root, a directory in it, or a prefix of skill paths). */
  directory(uri: string): Stateful.Resource[] | undefined {
    const children = this.directories.get(uri);
    return children === undefined ? undefined : [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : 1));
  }

  /** Calls `listener` after every change; returns a function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private describe(file: StoredFile): Stateful.Resource {
    const entry = file.path === SKILL_FILE ? this.byUri.get(file.uri) : undefined;
    if (entry !== undefined) {
      return { uri: file.uri, name: entry.frontmatter.name, description: entry.frontmatter.description, mimeType: file.mimeType, size: file.bytes.length };
    }
    return { uri: file.uri, name: file.path, mimeType: file.mimeType, size: file.bytes.length };
  }

  private changed(): void {
    const skills = [...this.skills.values()];
    this.sorted = skills.map((skill) => skill.entry).sort((a, b) => (a.uri < b.uri ? -1 : 1));
    this.byUri = new Map(this.sorted.map((entry) => [entry.uri, entry]));
    this.files = new Map(skills.flatMap((skill) => skill.files.map((file) => [file.uri, file] as const)).sort(([a], [b]) => (a < b ? -1 : 1)));
    this.directories = new Map();
    const prefix = `${this.scheme}://`;
    for (const file of this.files.values()) {
      let child: Stateful.Resource = this.describe(file);
      for (let cut = file.uri.lastIndexOf('/'); cut > prefix.length; cut = child.uri.lastIndexOf('/')) {
        const parent = child.uri.slice(0, cut);
        const children = this.directories.get(parent) ?? new Map<string, Stateful.Resource>();
        this.directories.set(parent, children);
        children.set(child.uri, child);
        child = { uri: parent, name: parent.slice(parent.lastIndexOf('/') + 1), mimeType: DIRECTORY_MIME_TYPE };
      }
    }
    for (const listener of this.listeners) listener();
  }
}
