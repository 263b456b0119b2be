/** The negotiated-state value and the one revision choice both peers use. */
import { describe, expect, it } from 'vitest';
import { chooseRevision, enveloped, newest, newestShared, statelessClientState, statefulState, withPeer } from '../../../runtime/era/negotiated.js';

describe('chooseRevision', () => {
  it('takes the revision asked for when supported, else the newest supported', () => {
    const supported = ['2025-03-26', '2025-06-18', '2025-11-25'];
    expect(chooseRevision('2025-06-18', supported)).toBe('2025-06-18');
    expect(chooseRevision('2024-01-01', supported)).toBe('2025-11-25');
    expect(chooseRevision(42, supported)).toBe('2025-11-25');
    expect(chooseRevision('2025-06-18', [])).toBeUndefined();
  });

  it('finds the newest in any order, and the newest both sides share', () => {
    expect(newest(['2025-11-25', '2024-11-05', '2025-06-18'])).toBe('2025-11-25');
    expect(newestShared(['2025-06-18', '2025-11-25', '2026-07-28'], ['2026-07-28', '2025-06-18'])).toBe('2026-07-28');
    expect(newestShared(['2025-11-25'], ['2026-07-28'])).toBeUndefined();
  });
});

describe('negotiated state', () => {
  it('builds a stateless client envelope once and shares it with requests that bring no _meta', () => {
    const state = statelessClientState('2026-07-28', { capabilities: { roots: {} }, clientInfo: { name: 'c', version: '1' }, logLevel: undefined });
    const meta = state.requestMeta!;
    expect(meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { roots: {} },
      'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
    });
    expect(Object.isFrozen(meta)).toBe(true);
    expect(enveloped({ name: 'echo' }, meta)._meta).toBe(meta);
    // The caller's own members win over the envelope's.
    expect(enveloped({ _meta: { 'io.modelcontextprotocol/protocolVersion': 'x', trace: 1 } }, meta)._meta).toEqual({ ...meta, 'io.modelcontextprotocol/protocolVersion': 'x', trace: 1 });
  });

  it('replaces the value only when what the peer declared changed', () => {
    const capabilities = { tools: {} };
    const state = statefulState('2025-11-25', capabilities, { name: 's', version: '1' });
    expect(withPeer(state, capabilities, state.peerInfo)).toBe(state);
    const changed = withPeer(state, { tools: {}, prompts: {} }, state.peerInfo);
    expect(changed).not.toBe(state);
    expect(changed).toMatchObject({ era: 'stateful', revision: '2025-11-25', peerCapabilities: { prompts: {} } });
    expect(state.peerCapabilities).toBe(capabilities);
  });
});
