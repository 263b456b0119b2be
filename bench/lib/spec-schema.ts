// The pinned MCP schema document, found where codegen finds it: $MCP_SPEC_MIRROR, the sibling
// spec mirror, or codegen's download cache. The bytes must match the pin in spec/revisions.json.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

interface Pin {
  readonly revision: string;
  readonly sha256: string;
}

export function loadPinnedSchema(revision: string): { document: Record<string, unknown>; origin: string } {
  const pins = (JSON.parse(readFileSync(join(repoRoot, 'spec', 'revisions.json'), 'utf8')) as { revisions: Pin[] }).revisions;
  const pin = pins.find((candidate) => candidate.revision === revision);
  if (pin === undefined) throw new Error(`revision ${revision} is not pinned in spec/revisions.json`);
  const candidates = [
    ...(process.env.MCP_SPEC_MIRROR ? [join(process.env.MCP_SPEC_MIRROR, revision, 'schema.json')] : []),
    join(repoRoot, '..', 'shared', 'spec', revision, 'schema.json'),
    join(repoRoot, '.cache', 'spec', revision, `${pin.sha256}.json`),
  ];
  for (const origin of candidates) {
    if (!existsSync(origin)) continue;
    const bytes = readFileSync(origin);
    if (createHash('sha256').update(bytes).digest('hex') !== pin.sha256) continue;
    return { document: JSON.parse(bytes.toString('utf8')) as Record<string, unknown>, origin };
  }
  throw new Error(`no copy of the ${revision} schema matching its pin; run \`make\` (codegen fetches it) or set MCP_SPEC_MIRROR`);
}
