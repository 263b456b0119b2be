/**
 * Transport features: the stateless era has none (its schema has no `initialize`), a stateful
 * revision takes them from the transport page's overlay entry, and one the overlay does not
 * know gets none, with a warning.
 */
import { describe, expect, it } from 'vitest';
import { revisionFeatures as generatedFeatures, revisions } from '../../generated/index.js';
import { buildTable } from '../../codegen/method-table.js';
import { buildModel } from '../../codegen/model.js';
import { TRANSPORT_OVERLAY } from '../../codegen/overlay.js';
import { applyPatches, loadPatches } from '../../codegen/patches.js';
import { revisionFeatures, transportPage } from '../../codegen/revision-features.js';
import { readSchema, repoRoot, type JsonObject } from './spec-mirror.js';

function tableAs(source: string, revision: string) {
  const schema = applyPatches(source, structuredClone(readSchema(source)), loadPatches(source, repoRoot)) as JsonObject;
  const model = buildModel({ revision, url: 'https://example.invalid/schema.json', sha256: '0'.repeat(64), era: 'stateful', status: 'released' }, schema, []);
  return { model, table: buildTable(model) };
}

describe('revisionFeatures', () => {
  it('gives 2025-11-25 priming events and SSE polling, and the older Streamable HTTP revisions resumption only', () => {
    expect(generatedFeatures).toEqual({
      '2024-11-05': { primingEvents: false, ssePolling: false, resumableStreams: false },
      '2025-03-26': { primingEvents: false, ssePolling: false, resumableStreams: true },
      '2025-06-18': { primingEvents: false, ssePolling: false, resumableStreams: true },
      '2025-11-25': { primingEvents: true, ssePolling: true, resumableStreams: true },
      '2026-07-28': { primingEvents: false, ssePolling: false, resumableStreams: false },
      draft: { primingEvents: false, ssePolling: false, resumableStreams: false },
    });
  });

  it('puts the same facts on each revision module', async () => {
    for (const revision of revisions) {
      const { revisionModules } = await import('../../generated/all.js');
      expect(revisionModules[revision]!.features, revision).toEqual(generatedFeatures[revision]);
    }
  });

  it('derives no features for a stateless schema, whatever the overlay says', () => {
    const { model, table } = tableAs('2026-07-28', '2099-01-01');
    const warnings: string[] = [];
    const overlay = { [transportPage('2099-01-01')]: { primingEvents: true, ssePolling: true, resumableStreams: true } };
    expect(revisionFeatures(model, table.methods, warnings, overlay)).toEqual({ primingEvents: false, ssePolling: false, resumableStreams: false });
    expect(warnings).toEqual([]);
  });

  it('reads a stateful revision from its transport page entry, and warns about one without', () => {
    const { model, table } = tableAs('2025-11-25', '2099-01-01');
    const overlay = { [transportPage('2099-01-01')]: { primingEvents: true, ssePolling: false, resumableStreams: true } };
    expect(revisionFeatures(model, table.methods, [], overlay)).toEqual({ primingEvents: true, ssePolling: false, resumableStreams: true });
    expect(table.features).toEqual({ primingEvents: false, ssePolling: false, resumableStreams: false });
    expect(table.warnings).toEqual([`revision 2099-01-01: TRANSPORT_OVERLAY has no entry for ${transportPage('2099-01-01')}; primingEvents, ssePolling and resumableStreams are false`]);
  });

  it('keys every overlay entry by a transport page', () => {
    for (const page of Object.keys(TRANSPORT_OVERLAY)) expect(page).toMatch(/^docs\/specification\/[^/]+\/basic\/transports\.mdx$/);
  });
});
