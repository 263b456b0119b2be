/**
 * Editing spec/revisions.json: revision names, where a new pin goes, how a moved pin keeps its
 * history, and writing the file back without touching the rest of it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSchemaObject } from './schema-walk.js';
import { SpecCommandError } from './spec-command-error.js';
import type { PinHistoryEntry, RevisionPin } from './spec-source.js';
import { writeFileAtomic } from './spec-write-tree.js';

/** Returns the name when it is a protocol revision: a real calendar date YYYY-MM-DD, or `draft`. */
export function checkRevisionName(name: string | undefined): string {
  if (name === 'draft') return name;
  const match = name === undefined ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(name);
  const valid = match !== null && new Date(`${name}T00:00:00Z`).toISOString().startsWith(name!);
  if (!valid) {
    throw new SpecCommandError(`revision name ${JSON.stringify(name ?? '')} is not a protocol revision: use a date YYYY-MM-DD (such as 2025-11-25) or draft`, 2);
  }
  return name!;
}

/** Stateful revisions open with the initialize handshake; stateless ones have no InitializeRequest. */
export function inferEra(document: Record<string, unknown>): RevisionPin['era'] {
  const defs = document.$defs ?? document.definitions;
  return isSchemaObject(defs) && defs.InitializeRequest !== undefined ? 'stateful' : 'stateless';
}

/** Pins in file order: dated revisions oldest first, then `draft`. */
export function insertPin(pins: readonly RevisionPin[], pin: RevisionPin): RevisionPin[] {
  const rank = (p: RevisionPin) => (p.revision === 'draft' ? '~' : p.revision);
  return [...pins, pin].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
}

/** The pin moved to new bytes; with a reason, the old url and hash are kept in its history. */
export function movePin(pin: RevisionPin, to: { url: string; sha256: string; era: RevisionPin['era'] }, reason: string | undefined, today: string): RevisionPin {
  const moved: RevisionPin = { revision: pin.revision, url: to.url, sha256: to.sha256, era: to.era, status: pin.status };
  if (reason === undefined) return pin.history === undefined ? moved : { ...moved, history: pin.history };
  const entry: PinHistoryEntry = { date: today, url: pin.url, sha256: pin.sha256, reason };
  return { ...moved, history: [...(pin.history ?? []), entry] };
}

/** Writes the pins into spec/revisions.json, keeping its other members (such as `upstream`). */
export function writePins(root: string, pins: readonly RevisionPin[]): void {
  const file = join(root, 'spec', 'revisions.json');
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileAtomic(file, `${JSON.stringify({ ...parsed, revisions: pins }, null, 2)}\n`);
}
