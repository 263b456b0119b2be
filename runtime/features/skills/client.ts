/**
 * The client half of the Skills extension: lists a server's skills, loads one on demand and
 * verifies every file it reads against the entry it holds (size, digest, and SKILL.md's
 * frontmatter field by field). Nothing is fetched before it is asked for: listing reads no
 * file, loading reads SKILL.md alone, and each supporting file is read when the caller reads it.
 */
import { SdkError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/request-context.js';
import { jsonEqual } from '../../json-schema/json-values.js';
import type { Client } from '../../peers/client.js';
import { base64Bytes, sha256Digest, textOf, utf8 } from './digest.js';
import { splitFrontmatter, parseYamlMapping } from './frontmatter.js';
import {
  isGetSkillParams, isGetSkillResult, isListSkillsParams, isListSkillsResult, isReadDirectoryParams, isReadDirectoryResult,
  MAX_SKILL_BYTES, MAX_SKILL_RESOURCES, SKILL_FILE, SKILLS_EXTENSION_ID, SkillsMethod,
  type DirectoryEntry, type Skill, type SkillResource,
} from './wire.js';

/** Why a skill or one of its files was refused (`SdkError('VERIFICATION_FAILED').data.reason`). */
export type SkillVerificationReason = 'size' | 'digest' | 'frontmatter' | 'unlisted' | 'dynamic' | 'limits';

/** A verified file of a loaded skill. */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType: string | undefined;
  readonly bytes: Uint8Array;
  /** The bytes as text when they are UTF-8. */
  readonly text: string | undefined;
}

/** A skill whose SKILL.md was read and verified against its entry. */
export interface LoadedSkill {
  /** The entry the skill was loaded from; every later read is checked against it. */
  readonly entry: Skill;
  /** SKILL.md as read. */
  readonly skillFile: SkillFile;
  /** SKILL.md after its frontmatter. */
  readonly body: string;
  /** Paths (relative to the skill root) of the files the entry lists. */
  readonly files: readonly string[];
  /** Reads a listed file by its path relative to the skill root, or its URI, verified. */
  readFile(path: string, options?: RequestOptions): Promise<SkillFile>;
}

/** Options of {@link SkillsClient.list}. */
export interface ListSkillsOptions extends RequestOptions {
  /** Most pages fetched (default 100); a listing with more throws SdkError('PAGE_LIMIT'). */
  readonly maxPages?: number;
}

/** Options of {@link SkillsClient.load}. */
export interface LoadSkillOptions extends RequestOptions {
  /** Load skills whose `resources` is `dynamic`, which cannot be verified (default false: refused). */
  readonly allowDynamic?: boolean;
}

/**
 * Skills of the server a Client is connected to. Construct it on a connected or unconnected
 * Client; it registers the extension's methods on that Client once.
 *
 * @example
 * ```ts
 * import { Client, StreamableHttpClientTransport } from 'mcpgen';
 * import { SkillsClient } from 'mcpgen/skills';
 *
 * const client = new Client({ name: 'host', version: '1.0.0' });
 * await client.connect(new StreamableHttpClientTransport('https://docs.example.com/mcp'));
 * const skills = new SkillsClient(client);
 * const [first] = await skills.list();
 * if (first !== undefined) {
 *   const loaded = await skills.load(first); // reads and verifies SKILL.md only
 *   console.log(loaded.body);
 * }
 * ```
 */
export class SkillsClient {
  constructor(readonly client: Client) {
    const protocol = client.protocol;
    const direction = 'client-to-server';
    if (!protocol.knows(SkillsMethod.List)) protocol.registerCustomRequest(SkillsMethod.List, { params: isListSkillsParams, result: isListSkillsResult, direction, extension: SKILLS_EXTENSION_ID });
    if (!protocol.knows(SkillsMethod.Get)) protocol.registerCustomRequest(SkillsMethod.Get, { params: isGetSkillParams, result: isGetSkillResult, direction, paramsRequired: true, extension: SKILLS_EXTENSION_ID });
    if (!protocol.knows(SkillsMethod.DirectoryRead)) {
      protocol.registerCustomRequest(SkillsMethod.DirectoryRead, { params: isReadDirectoryParams, result: isReadDirectoryResult, direction, paramsRequired: true, extension: SKILLS_EXTENSION_ID });
    }
  }

  /** The server's settings for the extension, or undefined when it does not declare it. */
  get serverSettings(): { readonly directoryRead?: boolean } | undefined {
    const declared = (this.client.serverCapabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[SKILLS_EXTENSION_ID];
    return typeof declared === 'object' && declared !== null ? (declared as { directoryRead?: boolean }) : undefined;
  }

  /** Every entry of `skills/list`, all pages. Reads no file. */
  async list(options: ListSkillsOptions = {}): Promise<Skill[]> {
    this.requireDeclared(SkillsMethod.List);
    const maxPages = options.maxPages ?? 100;
    const skills: Skill[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const result = (await this.send(SkillsMethod.List, cursor === undefined ? {} : { cursor }, options)) as { skills: Skill[]; nextCursor?: string };
      skills.push(...result.skills);
      if (result.nextCursor === undefined || result.nextCursor === '') return skills;
      if (seen.has(result.nextCursor)) throw new SdkError('PAGE_LIMIT', `skills/list repeated the cursor ${JSON.stringify(result.nextCursor)}`);
      seen.add(result.nextCursor);
      cursor = result.nextCursor;
    }
    throw new SdkError('PAGE_LIMIT', `skills/list had more than ${maxPages} pages`);
  }

  /** The current entry of the skill whose SKILL.md is at `uri` (`skills/get`). */
  async get(uri: string, options: RequestOptions = {}): Promise<Skill> {
    this.requireDeclared(SkillsMethod.Get);
    return ((await this.send(SkillsMethod.Get, { uri }, options)) as { skill: Skill }).skill;
  }

  /** The direct children of a directory resource; needs the server's `directoryRead`. */
  async readDirectory(uri: string, options: ListSkillsOptions = {}): Promise<DirectoryEntry[]> {
    if (this.serverSettings?.directoryRead !== true) throw new SdkError('CAPABILITY_MISSING', `Cannot send ${SkillsMethod.DirectoryRead}: the server did not declare ${SKILLS_EXTENSION_ID}.directoryRead`);
    const entries: DirectoryEntry[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < (options.maxPages ?? 100); page++) {
      const result = (await this.send(SkillsMethod.DirectoryRead, cursor === undefined ? { uri } : { uri, cursor }, options)) as { resources: DirectoryEntry[]; nextCursor?: string };
      entries.push(...result.resources);
      if (result.nextCursor === undefined || result.nextCursor === '' || result.nextCursor === cursor) return entries;
      cursor = result.nextCursor;
    }
    throw new SdkError('PAGE_LIMIT', `${SkillsMethod.DirectoryRead} of ${uri} had more than ${options.maxPages ?? 100} pages`);
  }

  /**
   * Loads a skill: reads its SKILL.md, checks size and digest against the entry and its
   * frontmatter against the entry's field by field, and refuses any mismatch with
   * SdkError('VERIFICATION_FAILED'). Given a URI, the entry comes from `skills/get` first.
   */
  async load(skill: Skill | string, options: LoadSkillOptions = {}): Promise<LoadedSkill> {
    const entry = typeof skill === 'string' ? await this.get(skill, options) : skill;
    const root = entry.uri.endsWith(`/${SKILL_FILE}`) ? entry.uri.slice(0, -SKILL_FILE.length - 1) : undefined;
    if (root === undefined) throw refused(entry.uri, 'unlisted', `${entry.uri} does not name a ${SKILL_FILE}`);
    const listed = entry.resources === 'dynamic' ? undefined : new Map(entry.resources.map((resource) => [resource.uri, resource]));
    if (listed === undefined) {
      if (options.allowDynamic !== true) throw refused(entry.uri, 'dynamic', `${entry.uri} publishes no digests (resources: "dynamic"); pass allowDynamic to load it unverified`);
    } else {
      const total = [...listed.values()].reduce((sum, resource) => sum + resource.size, 0);
      if (listed.size > MAX_SKILL_RESOURCES || total > MAX_SKILL_BYTES) {
        throw refused(entry.uri, 'limits', `${entry.uri} has ${listed.size} files of ${total} bytes, beyond the extension's limits (${MAX_SKILL_RESOURCES} files, ${MAX_SKILL_BYTES} bytes)`);
      }
      if (!listed.has(entry.uri)) throw refused(entry.uri, 'unlisted', `${entry.uri} is not among the files its entry lists`);
    }
    const skillFile = await this.readVerified(entry.uri, listed?.get(entry.uri), options);
    const split = skillFile.text === undefined ? undefined : splitFrontmatter(skillFile.text);
    let frontmatter: Record<string, unknown>;
    try {
      if (split === undefined) throw new Error(`${SKILL_FILE} has no frontmatter`);
      frontmatter = parseYamlMapping(split.yaml);
    } catch (error) {
      throw refused(entry.uri, 'frontmatter', `${entry.uri}: its frontmatter cannot be read (${error instanceof Error ? error.message : String(error)})`);
    }
    const differing = [...new Set([...Object.keys(frontmatter), ...Object.keys(entry.frontmatter)])].filter((key) => !jsonEqual(frontmatter[key] ?? null, entry.frontmatter[key] ?? null));
    if (differing.length > 0) throw refused(entry.uri, 'frontmatter', `${entry.uri}: frontmatter differs from the entry in ${differing.join(', ')}`, { fields: differing });
    const files = listed === undefined ? [] : [...listed.keys()].filter((uri) => uri.startsWith(`${root}/`)).map((uri) => uri.slice(root.length + 1));
    let used = skillFile.bytes.length;
    return {
      entry,
      skillFile,
      body: split!.body,
      files,
      readFile: async (path, readOptions = {}) => {
        const uri = path.includes('://') ? path : `${root}/${path}`;
        if (uri.split('/').some((segment) => segment === '..' || segment === '.')) throw refused(uri, 'unlisted', `${path} is not a path inside the skill`);
        const resource = listed?.get(uri);
        if (listed !== undefined && resource === undefined) throw refused(uri, 'unlisted', `${uri} is not among the files the held entry of ${entry.uri} lists`);
        const file = await this.readVerified(uri, resource, readOptions);
        used += file.bytes.length;
        if (listed === undefined && used > MAX_SKILL_BYTES) throw refused(uri, 'limits', `${entry.uri} has served more than ${MAX_SKILL_BYTES} bytes`);
        return file;
      },
    };
  }

  /** Reads `uri` and, when `expected` is given, checks its size and digest. */
  private async readVerified(uri: string, expected: SkillResource | undefined, options: RequestOptions): Promise<SkillFile> {
    const result = await this.client.readResource({ uri }, options);
    const contents = result.contents as ReadonlyArray<{ readonly uri: string; readonly mimeType?: string; readonly text?: string; readonly blob?: string }>;
    const content = contents.find((candidate) => candidate.uri === uri) ?? contents[0];
    if (content === undefined) throw refused(uri, 'size', `resources/read of ${uri} returned no contents`);
    const bytes = typeof content.text === 'string' ? utf8(content.text) : base64Bytes(content.blob ?? '');
    if (expected !== undefined) {
      if (bytes.length !== expected.size) throw refused(uri, 'size', `${uri} is ${bytes.length} bytes; its entry says ${expected.size}`, { expected: expected.size, actual: bytes.length });
      const digest = await sha256Digest(bytes);
      if (digest !== expected.digest) throw refused(uri, 'digest', `${uri} has digest ${digest}; its entry says ${expected.digest}`, { expected: expected.digest, actual: digest });
    }
    return { uri, mimeType: content.mimeType, bytes, text: textOf(bytes) };
  }

  private requireDeclared(method: string): void {
    if (this.serverSettings === undefined) throw new SdkError('CAPABILITY_MISSING', `Cannot send ${method}: the server did not declare ${SKILLS_EXTENSION_ID}`);
  }

  private send(method: string, params: Record<string, unknown>, options: RequestOptions): Promise<unknown> {
    // The extension's methods are custom methods of the engine; `request` sends them with the era's envelope.
    return (this.client.request as (method: string, params: unknown, options?: RequestOptions) => Promise<unknown>)(method, params, options);
  }
}

function refused(uri: string, reason: SkillVerificationReason, message: string, extra: Record<string, unknown> = {}): SdkError {
  return new SdkError('VERIFICATION_FAILED', `Refused unverified skill content: ${message}`, { data: { uri, reason, ...extra } });
}
