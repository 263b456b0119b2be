// What the transport learns with each outgoing message: the bound revision's facts, the tool
// schema hook and, for a message sent on behalf of a request, that request's id. The engine
// shares one options object between messages that belong to no request, so these tests pin
// that it still follows every change of revision and hook.
import { describe, expect, it } from 'vitest';
import { revisionFacts } from '../../../runtime/core/revision-facts.js';
import { connectedEngine, settle } from '../fixtures/engine-harness.js';
import { createFakeRevision } from '../fixtures/fake-revision.js';

describe('send options', () => {
  it('follow a rebound revision and a replaced tool schema hook', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client', revision: createFakeRevision({ revision: '2099-01-01' }) });
    void protocol.request('ping').catch(() => undefined);
    const later = createFakeRevision({ revision: '2099-02-02' });
    protocol.setRevision(later);
    const schemas = (name: string): unknown => ({ name });
    protocol.toolInputSchema = schemas;
    void protocol.request('ping').catch(() => undefined);
    await settle();
    const [first, second] = transport.sent.map((frame) => frame.options);
    expect(first?.revision?.revision).toBe('2099-01-01');
    expect(first?.toolInputSchema).toBeUndefined();
    expect(second?.revision).toBe(revisionFacts(later));
    expect(second?.toolInputSchema).toBe(schemas);
    expect(second?.relatedRequestId).toBeUndefined();
  });

  it('name the request a reply answers, each its own', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.setRequestHandler('ping', () => ({}));
    transport.deliver({ jsonrpc: '2.0', id: 7, method: 'ping' });
    transport.deliver({ jsonrpc: '2.0', id: 'eight', method: 'ping' });
    await settle();
    expect(transport.sent.map((frame) => frame.options?.relatedRequestId)).toEqual([7, 'eight']);
    expect(transport.sent[0]?.options?.revision?.revision).toBe(protocol.revision?.revision);
  });
});
