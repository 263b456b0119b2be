import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** One pinned revision as recorded in spec/revisions.json. */
export interface RevisionPin {
  readonly revision: string;
  readonly url: string;
  readonly sha256: string;
  readonly era: 'stateful' | 'stateless';
  readonly status: 'released' | 'draft';
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
    return entry as unknown as RevisionPin;
  });
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Loads a pinned schema: from `$MCP_SPEC_MIRROR/<rev>/schema.json` when the mirror is set,
 * else from the git-ignored download cache, else from the pinned URL (then cached).
 * The bytes must match the pinned sha256 wherever they come from.
 */
export async function loadSchema(pin: RevisionPin, options: { mirror?: string; cacheDir?: string } = {}): Promise<LoadedSchema> {
  const mirror = options.mirror ?? process.env.MCP_SPEC_MIRROR;
  const cacheDir = options.cacheDir ?? join(repoRoot, '.cache', 'spec');
  let bytes: Buffer;
  let origin: string;
  if (mirror) {
    origin = join(mirror, pin.revision, 'schema.json');
    if (!existsSync(origin)) {
      throw new SpecSourceError(
        `revision ${pin.revision}: ${origin} does not exist; point MCP_SPEC_MIRROR at a folder holding <revision>/schema.json, or unset it to download ${pin.url}`,
      );
    }
    bytes = readFileSync(origin);
  } else {
    const cached = join(cacheDir, pin.revision, `${pin.sha256}.json`);
    if (existsSync(cached)) {
      origin = cached;
      bytes = readFileSync(cached);
    } else {
      origin = pin.url;
      bytes = await download(pin);
      if (sha256(bytes) === pin.sha256) {
        mkdirSync(dirname(cached), { recursive: true });
        writeFileSync(cached, bytes);
      }
    }
  }
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

async function download(pin: RevisionPin): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(pin.url, { signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new SpecSourceError(
      `revision ${pin.revision}: download of ${pin.url} failed (${(error as Error).message}); set MCP_SPEC_MIRROR to a local copy of the schemas`,
    );
  }
  if (!response.ok) {
    throw new SpecSourceError(
      `revision ${pin.revision}: download of ${pin.url} answered HTTP ${response.status}; check the pinned URL or set MCP_SPEC_MIRROR`,
    );
  }
  return Buffer.from(await response.arrayBuffer());
}
