import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One pinned revision as recorded in spec/revisions.json. */
export interface RevisionPin {
  readonly revision: string;
  readonly url: string;
  readonly sha256: string;
  readonly era: 'stateful' | 'stateless';
  readonly status: 'released' | 'draft';
  /** Earlier pins of a released revision that was moved on purpose (`spec update --force`), oldest first. */
  readonly history?: readonly PinHistoryEntry[];
}

/** A pin a released revision once had, and why it was moved. */
export interface PinHistoryEntry {
  /** UTC day of the move, YYYY-MM-DD. */
  readonly date: string;
  readonly url: string;
  readonly sha256: string;
  readonly reason: string;
}

/** A loaded, hash-checked schema document. */
export interface LoadedSchema {
  readonly pin: RevisionPin;
  readonly bytes: Buffer;
  readonly document: Record<string, unknown>;
  /** Where the bytes came from (a file path or the URL). */
  readonly origin: string;
}

/** An error whose message is a single line telling the maintainer what went wrong and what to do. */
export class SpecSourceError extends Error {
  override name = 'SpecSourceError';
}

const SUPPORTED_DIALECTS = new Set([
  'http://json-schema.org/draft-07/schema#',
  'https://json-schema.org/draft/2020-12/schema',
]);

export const repoRoot = resolve(dirname(new URL(import.meta.url).pathname), '..');

/** Reads and shape-checks spec/revisions.json. */
export function readPins(root = repoRoot): RevisionPin[] {
  const file = join(root, 'spec', 'revisions.json');
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { revisions?: unknown };
  if (!Array.isArray(parsed.revisions)) throw new SpecSourceError(`${file}: "revisions" must be an array`);
  return parsed.revisions.map((entry: Record<string, unknown>, i: number) => {
    for (const key of ['revision', 'url', 'sha256', 'era', 'status']) {
      if (typeof entry[key] !== 'string') throw new SpecSourceError(`${file}: revisions[${i}].${key} must be a string`);
    }
    if (!/^[0-9a-f]{64}$/.test(entry.sha256 as string)) {
      throw new SpecSourceError(`${file}: revisions[${i}].sha256 must be 64 lowercase hex digits`);
    }
    if (entry.era !== 'stateful' && entry.era !== 'stateless') {
      throw new SpecSourceError(`${file}: revisions[${i}].era must be "stateful" or "stateless"`);
    }
    if (entry.status !== 'released' && entry.status !== 'draft') {
      throw new SpecSourceError(`${file}: revisions[${i}].status must be "released" or "draft"`);
    }
    if (entry.history !== undefined) checkHistory(file, i, entry.history);
    return entry as unknown as RevisionPin;
  });
}

function checkHistory(file: string, i: number, history: unknown): void {
  if (!Array.isArray(history)) throw new SpecSourceError(`${file}: revisions[${i}].history must be an array`);
  history.forEach((item: unknown, j) => {
    const at = `${file}: revisions[${i}].history[${j}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new SpecSourceError(`${at} must be an object`);
    const record = item as Record<string, unknown>;
    for (const key of ['date', 'url', 'sha256', 'reason']) {
      if (typeof record[key] !== 'string' || record[key] === '') throw new SpecSourceError(`${at}.${key} must be a non-empty string`);
    }
    if (!/^[0-9a-f]{64}$/.test(record.sha256 as string)) throw new SpecSourceError(`${at}.sha256 must be 64 lowercase hex digits`);
  });
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Loads a pinned schema: from `$MCP_SPEC_MIRROR/<rev>/schema.json` when the mirror is set,
 * else from the git-ignored download cache, else from the pinned URL (then cached). A pin that
 * `spec add`/`spec update` moved ahead of the mirror is served from the cache, which keys bytes
 * by their hash. The bytes must match the pinned sha256 wherever they come from.
 */
export async function loadSchema(pin: RevisionPin, options: { mirror?: string; cacheDir?: string } = {}): Promise<LoadedSchema> {
  const mirror = options.mirror ?? process.env.MCP_SPEC_MIRROR;
  const cacheDir = options.cacheDir ?? join(repoRoot, '.cache', 'spec');
  const cached = cachePath(cacheDir, pin.revision, pin.sha256);
  if (mirror) {
    const origin = join(mirror, pin.revision, 'schema.json');
    const bytes = existsSync(origin) ? readFileSync(origin) : null;
    if ((bytes === null || sha256(bytes) !== pin.sha256) && existsSync(cached)) return parseSchema(pin, readFileSync(cached), cached);
    if (bytes === null) {
      throw new SpecSourceError(
        `revision ${pin.revision}: ${origin} does not exist; point MCP_SPEC_MIRROR at a folder holding <revision>/schema.json, or unset it to download ${pin.url}`,
      );
    }
    return parseSchema(pin, bytes, origin);
  }
  if (existsSync(cached)) return parseSchema(pin, readFileSync(cached), cached);
  const bytes = await downloadSchema(pin.revision, pin.url);
  if (sha256(bytes) === pin.sha256) storeInCache(cacheDir, pin.revision, bytes);
  return parseSchema(pin, bytes, pin.url);
}

/** Where the download cache keeps a revision's bytes with the given hash. */
export function cachePath(cacheDir: string, revision: string, hash: string): string {
  return join(cacheDir, revision, `${hash}.json`);
}

/** Keeps downloaded bytes under their hash, so later runs need no network. */
export function storeInCache(cacheDir: string, revision: string, bytes: Uint8Array): string {
  const file = cachePath(cacheDir, revision, sha256(bytes));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  return file;
}

/** Checks fetched bytes against the pin's hash, parses them and checks the dialect. */
export function parseSchema(pin: RevisionPin, bytes: Buffer, origin: string): LoadedSchema {
  const actual = sha256(bytes);
  if (actual !== pin.sha256) {
    throw new SpecSourceError(
      `revision ${pin.revision}: sha256 of ${origin} is ${actual}, spec/revisions.json pins ${pin.sha256}; fetch the pinned file again or re-pin the revision on purpose`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new SpecSourceError(`revision ${pin.revision}: ${origin} is not valid JSON (${(error as Error).message}); fetch it again`);
  }
  checkDialect(pin.revision, origin, document);
  return { pin, bytes, document: document as Record<string, unknown>, origin };
}

/** Rejects documents that are not JSON objects in a dialect codegen understands. */
export function checkDialect(revision: string, origin: string, document: unknown): asserts document is Record<string, unknown> {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new SpecSourceError(`revision ${revision}: ${origin} is not a JSON Schema object`);
  }
  const dialect = (document as Record<string, unknown>).$schema;
  if (typeof dialect !== 'string' || !SUPPORTED_DIALECTS.has(dialect)) {
    throw new SpecSourceError(
      `revision ${revision}: ${origin} declares unknown dialect ${JSON.stringify(dialect)}; codegen understands ${[...SUPPORTED_DIALECTS].join(' and ')}`,
    );
  }
}

/** Fetches a schema's bytes from an http(s) or file URL; any failure is one SpecSourceError line. */
export async function downloadSchema(revision: string, url: string): Promise<Buffer> {
  if (url.startsWith('file:')) {
    try {
      return readFileSync(fileURLToPath(url));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new SpecSourceError(`revision ${revision}: download of ${url} failed (${reason}); check the URL or set MCP_SPEC_MIRROR to a local copy of the schemas`);
    }
  }
  let response: Response;
  let body: ArrayBuffer;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    body = await response.arrayBuffer();
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    const reason = typeof cause === 'string' ? `${(error as Error).message}: ${cause}` : (error as Error).message;
    throw new SpecSourceError(
      `revision ${revision}: download of ${url} failed (${reason}); set MCP_SPEC_MIRROR to a local copy of the schemas`,
    );
  }
  if (!response.ok) {
    throw new SpecSourceError(
      `revision ${revision}: download of ${url} answered HTTP ${response.status}; check the pinned URL or set MCP_SPEC_MIRROR`,
    );
  }
  return Buffer.from(body);
}
