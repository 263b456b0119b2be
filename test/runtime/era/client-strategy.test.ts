/** The Client's two era strategies: plain sends, and the stateless envelope with its cache and what results teach. */
import { describe, expect, it, vi } from 'vitest';
import { revisionModule } from '../../../generated/2026-07-28/index.js';
import { Method } from '../../../generated/methods.js';
import { ResponseCache } from '../../../runtime/era/client-response-cache.js';
import { statefulClientEra, statelessClientEra, type ClientEraHost, type ClientOpeningHost } from '../../../runtime/era/client-strategy.js';
import { statefulState, statelessClientState, type Negotiated } from '../../../runtime/era/negotiated.js';

/** An opening host that answers `initialize` with `chosen` and records what the strategy did. */
function fakeOpening(chosen: string, log: string[]): ClientOpeningHost {
  return {
    preferred: '2025-11-25',
    statefulVersions: ['2025-06-18', '2025-11-25'],
    statelessVersions: ['2026-07-28'],
    supportedVersions: ['2025-06-18', '2025-11-25', '2026-07-28'],
    capabilities: { roots: {} },
    clientInfo: { name: 'c', version: '1' },
    load: async (version) => {
      log.push(`load ${version}`);
      return revisionModule;
    },
    bind: () => log.push('bind'),
    request: async (method, params) => {
      log.push(`${method} ${JSON.stringify(params)}`);
      return { protocolVersion: chosen, capabilities: { tools: {} }, serverInfo: { name: 's', version: '2' }, instructions: 'hi' };
    },
    notify: async (method) => {
      log.push(method);
    },
    settle: (state, instructions) => log.push(`settle ${state.era} ${state.revision} ${instructions}`),
    enterStateless: (version) => log.push(`enter ${version}`),
    adoptDiscover: () => true,
    errorCodes: () => revisionModule.errorCodes,
  };
}

interface Recorded {
  readonly host: ClientEraHost;
  readonly sent: Array<{ method: string; params: unknown }>;
  readonly observed: Array<{ method: string; mirrored: boolean }>;
  readonly identities: unknown[];
}

/** `sentAt` is what the engine tells `finish` of when a request went out (default: now). */
function fakeHost(state: Negotiated, reply: (method: string, params: unknown) => unknown, cache?: ResponseCache, sentAt?: number): Recorded {
  const sent: Recorded['sent'] = [];
  const observed: Recorded['observed'] = [];
  const identities: unknown[] = [];
  const host: ClientEraHost = {
    state,
    revision: revisionModule,
    cache,
    maxInputRounds: 3,
    defaultTimeoutMs: 1_000,
    // As the engine does: the result goes through `finish` before the promise resolves.
    transmit: async (method, params, _options, finish) => {
      sent.push({ method, params });
      const result = reply(method, params);
      return finish === undefined ? result : finish(result, sentAt ?? Date.now());
    },
    observe: (method, _params, result, mirrored) => {
      observed.push({ method, mirrored });
      return result;
    },
    mirrorsToolParameters: true,
    noteIdentity: (result) => identities.push(result._meta),
    fulfil: async () => ({}),
    opening: fakeOpening('2025-11-25', []),
  };
  return { host, sent, observed, identities };
}

describe('statefulClientEra', () => {
  it('sends params as they are and returns what the tool catalog observed', async () => {
    const { host, sent, observed, identities } = fakeHost(statefulState('2025-11-25', {}, undefined), () => ({ content: [] }));
    const strategy = statefulClientEra(host);
    expect(strategy).toMatchObject({ era: 'stateful', listens: false });
    const params = { name: 'echo', arguments: {} };
    await expect(strategy.send(Method.ToolsCall, params, undefined)).resolves.toEqual({ content: [] });
    expect(sent).toEqual([{ method: Method.ToolsCall, params }]);
    expect(sent[0]!.params).toBe(params);
    expect(observed).toEqual([{ method: Method.ToolsCall, mirrored: false }]);
    expect(identities).toEqual([]);
  });
});

describe('statelessClientEra', () => {
  const state = statelessClientState('2026-07-28', { capabilities: {}, clientInfo: { name: 'c', version: '1' }, logLevel: undefined });

  it('puts the envelope into _meta, learns the identity and observes with mirrored parameters', async () => {
    const meta = { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '2' } };
    const { host, sent, observed, identities } = fakeHost(state, () => ({ resultType: 'complete', content: [], _meta: meta }));
    const strategy = statelessClientEra(host);
    expect(strategy).toMatchObject({ era: 'stateless', listens: true });
    await strategy.send(Method.ToolsCall, { name: 'echo' }, undefined);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.params).toEqual({ name: 'echo', _meta: state.requestMeta });
    expect(observed).toEqual([{ method: Method.ToolsCall, mirrored: true }]);
    expect(identities).toEqual([meta]);
  });

  it('answers a cacheable request from the cache while its ttl lasts, and only cacheable ones', async () => {
    let now = 0;
    const cache = new ResponseCache({ now: () => now });
    const { host, sent } = fakeHost(state, (method) => ({ resultType: 'complete', ttlMs: 100, cacheScope: 'public', ...(method === Method.ToolsList ? { tools: [] } : { content: [] }) }), cache);
    const strategy = statelessClientEra(host);
    await strategy.send(Method.ToolsList, {}, undefined);
    await strategy.send(Method.ToolsList, {}, undefined);
    expect(sent).toHaveLength(1);
    now = 150;
    await strategy.send(Method.ToolsList, {}, undefined);
    expect(sent).toHaveLength(2);
    await strategy.send(Method.ToolsCall, { name: 'echo' }, undefined);
    await strategy.send(Method.ToolsCall, { name: 'echo' }, undefined);
    expect(sent.filter((request) => request.method === Method.ToolsCall)).toHaveLength(2);
  });

  it('counts the budget of all input rounds from when the first request went out', async () => {
    vi.useFakeTimers();
    try {
      const asking = { resultType: 'input_required', inputRequests: { roots: { method: 'roots/list' } } };
      // The first round went out 900 ms before its answer arrived: 100 ms of the 1,000 are left.
      const { host } = fakeHost(state, () => asking, undefined, Date.now() - 900);
      const strategy = statelessClientEra({ ...host, fulfil: () => new Promise(() => undefined) });
      let outcome: unknown;
      void strategy.send(Method.ToolsCall, { name: 'ask' }, undefined).catch((error: unknown) => {
        outcome = error;
      });
      await vi.advanceTimersByTimeAsync(95);
      expect(outcome).toBeUndefined();
      await vi.advanceTimersByTimeAsync(10);
      expect(outcome).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects, never throws, when it cannot send, and when what the result teaches fails', async () => {
    const unsettled = fakeHost(state, () => ({ resultType: 'complete', content: [] }));
    const strategy = statelessClientEra({ ...unsettled.host, state: undefined });
    let sending: Promise<unknown> | undefined;
    expect(() => {
      sending = strategy.send(Method.ToolsCall, { name: 'echo' }, undefined);
    }).not.toThrow();
    await expect(sending).rejects.toBeInstanceOf(TypeError);
    expect(unsettled.sent).toEqual([]);
    const { host } = fakeHost(state, () => ({ resultType: 'complete', content: [] }));
    const observing = statelessClientEra({
      ...host,
      observe: () => {
        throw new Error('bad tool schema');
      },
    });
    await expect(observing.send(Method.ToolsCall, { name: 'echo' }, undefined)).rejects.toThrow('bad tool schema');
  });
});

describe('opening', () => {
  it('runs the initialize handshake in the stateful era and settles what it negotiated', async () => {
    const log: string[] = [];
    const { host } = fakeHost(statefulState('2025-11-25', {}, undefined), () => ({}));
    const strategy = statefulClientEra({ ...host, opening: fakeOpening('2025-06-18', log) });
    await expect(strategy.open({})).resolves.toEqual({ kind: 'open', choice: { era: 'stateful' } });
    expect(log).toEqual([
      'load 2025-11-25',
      'bind',
      `${Method.Initialize} {"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"c","version":"1"}}`,
      'load 2025-06-18',
      'bind',
      'settle stateful 2025-06-18 hi',
      Method.NotificationsInitialized,
    ]);
    await expect(strategy.resume({ era: 'stateful' })).resolves.toBe(false);
  });

  it('refuses a version the client does not support, before settling anything', async () => {
    const log: string[] = [];
    const { host } = fakeHost(statefulState('2025-11-25', {}, undefined), () => ({}));
    const strategy = statefulClientEra({ ...host, opening: fakeOpening('2024-11-05', log) });
    await expect(strategy.open({})).rejects.toMatchObject({ code: 'UNSUPPORTED_VERSION' });
    expect(log.some((entry) => entry.startsWith('settle'))).toBe(false);
  });

  it('resumes a remembered stateless choice only for a version it supports', async () => {
    const log: string[] = [];
    const { host } = fakeHost(statefulState('2025-11-25', {}, undefined), () => ({}));
    const strategy = statelessClientEra({ ...host, opening: fakeOpening('2025-11-25', log) });
    await expect(strategy.resume({ era: 'stateless', protocolVersion: '2099-01-01', discover: {} })).resolves.toBe(false);
    await expect(strategy.resume({ era: 'stateful' })).resolves.toBe(false);
    expect(log).toEqual([]);
    await expect(strategy.resume({ era: 'stateless', protocolVersion: '2026-07-28', discover: {} })).resolves.toBe(true);
    expect(log).toEqual(['load 2026-07-28']);
  });
});
