import { describe, expect, it } from 'vitest';
import {
  CAPABILITY_OVERLAY,
  ERROR_CODE_OVERLAY,
  STUB_NAME_OVERLAY,
  type CapabilityOverlayEntry,
} from '../../codegen/overlay.js';
import { REVISIONS, definitionsOf, isObject, readSchema, revisionOrder, type JsonObject } from './spec-mirror.js';

/** The unions whose members are the methods of a revision. */
const METHOD_UNIONS = ['ClientRequest', 'ServerRequest', 'ClientNotification', 'ServerNotification', 'InputRequest'] as const;

/**
 * Methods of one revision, read from the request and notification unions. A union member is
 * a `$ref` or (2026-07-28's ClientNotification) the union collapsed into a single inline
 * message object.
 */
function methodsOf(revision: string): Map<string, string> {
  const defs = definitionsOf(readSchema(revision));
  const methods = new Map<string, string>();
  for (const union of METHOD_UNIONS) {
    const schema = defs[union];
    if (schema === undefined) continue;
    const members = schema['anyOf'] ?? schema['oneOf'];
    for (const member of Array.isArray(members) ? members : [schema]) {
      if (!isObject(member)) throw new Error(`revision ${revision}: ${union} has a non-object member`);
      const ref = member['$ref'];
      const target = typeof ref === 'string' ? defs[ref.replace(/^#\/(?:\$defs|definitions)\//, '')] : member;
      const method = methodConst(target);
      if (method === null) throw new Error(`revision ${revision}: a member of ${union} has no properties.method.const`);
      methods.set(method, union);
    }
  }
  return methods;
}

function methodConst(schema: JsonObject | undefined): string | null {
  const properties = schema?.['properties'];
  const method = isObject(properties) ? properties['method'] : undefined;
  const value = isObject(method) ? method['const'] : undefined;
  return typeof value === 'string' ? value : null;
}

/** Whether `path` names a property chain inside a revision's Client/ServerCapabilities. */
function capabilityPathExists(revision: string, side: 'client' | 'server', path: readonly string[]): boolean {
  const defs = definitionsOf(readSchema(revision));
  let node: JsonObject | undefined = defs[side === 'client' ? 'ClientCapabilities' : 'ServerCapabilities'];
  for (const segment of path) {
    const properties = node?.['properties'];
    const next = isObject(properties) ? properties[segment] : undefined;
    if (!isObject(next)) return false;
    node = next;
  }
  return true;
}

function screamingSnake(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase();
}

/**
 * Error codes a revision's schema pins in its `*Error` definitions: either an error object
 * (`properties.code.const`) or a whole error response whose `error` is an allOf that narrows
 * `code`.
 */
function schemaErrorCodes(revision: string): Array<{ definition: string; code: number }> {
  const found: Array<{ definition: string; code: number }> = [];
  for (const [definition, schema] of Object.entries(definitionsOf(readSchema(revision)))) {
    if (!definition.endsWith('Error')) continue;
    const properties = schema['properties'];
    if (!isObject(properties)) continue;
    const candidates: unknown[] = [properties['code']];
    const error = properties['error'];
    if (isObject(error) && Array.isArray(error['allOf'])) {
      for (const part of error['allOf']) {
        if (isObject(part) && isObject(part['properties'])) candidates.push(part['properties']['code']);
      }
    }
    for (const candidate of candidates) {
      if (isObject(candidate) && typeof candidate['const'] === 'number') found.push({ definition, code: candidate['const'] });
    }
  }
  return found;
}

function inForce(entry: { since: string; until?: string }, revision: string): boolean {
  const at = revisionOrder(revision);
  return revisionOrder(entry.since) <= at && (entry.until === undefined || at <= revisionOrder(entry.until));
}

const CITE = /^docs\/specification\/(\d{4}-\d{2}-\d{2}|draft)\/\S+\.mdx/;

describe('CAPABILITY_OVERLAY', () => {
  it.each(REVISIONS)('%s: every request and notification method has an entry (or an explicit null)', (revision) => {
    const missing = [...methodsOf(revision).keys()].filter((method) => !(method in CAPABILITY_OVERLAY));
    expect(missing, `add these methods to CAPABILITY_OVERLAY in codegen/overlay.ts`).toEqual([]);
  });

  it('lists only methods that exist in at least one schema', () => {
    const known = new Set(REVISIONS.flatMap((revision) => [...methodsOf(revision).keys()]));
    const unknown = Object.keys(CAPABILITY_OVERLAY).filter((method) => !known.has(method));
    expect(unknown).toEqual([]);
  });

  const gated = Object.entries(CAPABILITY_OVERLAY).filter(
    (entry): entry is [string, CapabilityOverlayEntry] => entry[1] !== null,
  );

  it.each(gated)('%s: its gate exists in the capabilities of a revision that has the method', (method, gate) => {
    expect(gate.path.length).toBeGreaterThan(0);
    const first = gate.path[0] ?? '';
    const definingFirst = REVISIONS.filter((revision) => {
      const defs = definitionsOf(readSchema(revision));
      return ['ClientCapabilities', 'ServerCapabilities'].some((name) => {
        const properties = defs[name]?.['properties'];
        return isObject(properties) && first in properties;
      });
    });
    expect(definingFirst, `no revision declares a "${first}" capability`).not.toEqual([]);
    const withMethod = REVISIONS.filter((revision) => methodsOf(revision).has(method));
    const withFullPath = withMethod.filter((revision) => capabilityPathExists(revision, gate.side, gate.path));
    expect(withFullPath, `${gate.side} capability ${gate.path.join('.')} exists in no revision that has ${method}`).not.toEqual([]);
  });

  it.each(gated)('%s: cites a specification page', (_method, gate) => {
    expect(gate.cite).toMatch(CITE);
  });
});

describe('ERROR_CODE_OVERLAY', () => {
  it('has well-formed, non-overlapping entries', () => {
    for (const entry of ERROR_CODE_OVERLAY) {
      expect(entry.name).toMatch(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/);
      expect(Number.isInteger(entry.code)).toBe(true);
      expect(entry.cite).toMatch(CITE);
      expect(() => revisionOrder(entry.since)).not.toThrow();
      if (entry.until !== undefined) expect(revisionOrder(entry.until)).toBeGreaterThanOrEqual(revisionOrder(entry.since));
    }
    for (const revision of REVISIONS) {
      const active = ERROR_CODE_OVERLAY.filter((entry) => inForce(entry, revision));
      expect(new Set(active.map((e) => e.code)).size, `duplicate code in ${revision}`).toBe(active.length);
      expect(new Set(active.map((e) => e.name)).size, `duplicate name in ${revision}`).toBe(active.length);
    }
  });

  it('keeps the JSON-RPC codes in every revision', () => {
    for (const revision of REVISIONS) {
      const active = Object.fromEntries(ERROR_CODE_OVERLAY.filter((e) => inForce(e, revision)).map((e) => [e.name, e.code]));
      expect(active).toMatchObject({
        PARSE_ERROR: -32700,
        INVALID_REQUEST: -32600,
        METHOD_NOT_FOUND: -32601,
        INVALID_PARAMS: -32602,
        INTERNAL_ERROR: -32603,
      });
    }
  });

  it.each(REVISIONS)('%s: matches every code pinned by an *Error definition', (revision) => {
    const pinned = schemaErrorCodes(revision);
    if (revision === '2026-07-28' || revision === 'draft') expect(pinned.length).toBeGreaterThanOrEqual(8);
    for (const { definition, code } of pinned) {
      const entry = ERROR_CODE_OVERLAY.find((e) => e.code === code && inForce(e, revision));
      expect(entry, `${revision}: ${definition} pins ${code}, which the overlay does not list for this revision`).toBeDefined();
      const names = [screamingSnake(definition), screamingSnake(definition.replace(/Error$/, ''))];
      expect(names, `${revision}: ${definition} pins ${code} under overlay name ${entry?.name}`).toContain(entry?.name);
    }
  });

  it('finds every 2026-era code in the 2026-07-28 schema', () => {
    const pinned = new Set(schemaErrorCodes('2026-07-28').map((p) => p.code));
    const introduced = ERROR_CODE_OVERLAY.filter((e) => e.since === '2026-07-28');
    expect(introduced.map((e) => e.name).sort()).toEqual(
      ['HEADER_MISMATCH', 'MISSING_REQUIRED_CLIENT_CAPABILITY', 'UNSUPPORTED_PROTOCOL_VERSION'],
    );
    for (const entry of introduced) expect(pinned.has(entry.code), entry.name).toBe(true);
  });
});

describe('STUB_NAME_OVERLAY', () => {
  it('renames only request definitions that exist', () => {
    for (const [definition, stub] of Object.entries(STUB_NAME_OVERLAY)) {
      const found = REVISIONS.some((revision) => definitionsOf(readSchema(revision))[definition] !== undefined);
      expect(found, definition).toBe(true);
      expect(stub).toMatch(/^[a-z][A-Za-z0-9]*$/);
    }
  });
});
