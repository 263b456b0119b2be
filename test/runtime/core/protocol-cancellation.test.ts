import { describe, expect, it, vi } from 'vitest';
import { SdkError } from '../../../runtime/core/errors.js';
import type { Progress } from '../../../runtime/core/pending-requests.js';
import type { RequestContext } from '../../../runtime/core/request-context.js';
import { connectedEngine, connectedPair, settle } from '../fixtures/engine-harness.js';

describe('Protocol: cancelling outgoing requests', () => {
  it('sends notifications/cancelled and rejects locally when the signal aborts', async () => {
    const { protocol, transport, errors } = await connectedEngine({ side: 'client' });
    const controller = new AbortController();
    const pending = protocol.request('ping', undefined, { signal: controller.signal });
    const { id } = await transport.nextMessage();
    controller.abort('user gave up');
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(await transport.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'user gave up' },
    });
    expect(protocol.pendingRequestCount).toBe(0);
    // A response racing the cancellation is dropped and reported, never delivered.
    transport.deliver({ jsonrpc: '2.0', id, result: {} });
    await settle();
    expect(errors.map((e) => (e as SdkError).code)).toEqual(['UNEXPECTED_RESPONSE']);
  });

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    await expect(protocol.request('ping', undefined, { signal: AbortSignal.abort('early') })).rejects.toMatchObject({
      code: 'REQUEST_CANCELLED',
    });
    await settle();
    expect(transport.sent).toHaveLength(0);
  });
});

describe('Protocol: cancelled incoming requests', () => {
  it('aborts the handler signal and sends no response', async () => {
    const { protocol, transport } = await connectedEngine();
    let seenReason: unknown;
    protocol.setRequestHandler('tools/call', (_params, context) => new Promise((resolve) => {
      context.signal.addEventListener('abort', () => {
        seenReason = context.signal.reason;
        resolve({ content: [] });
      });
    }));
    protocol.setRequestHandler('ping', () => ({}));
    transport.deliver({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'slow' } });
    await settle();
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'stop' } });
    transport.deliver({ jsonrpc: '2.0', id: 6, method: 'ping' });
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 6, result: {} });
    await settle();
    expect(transport.unread).toBe(0);
    expect(seenReason).toMatchObject({ code: 'REQUEST_CANCELLED', message: 'Cancelled by peer: stop' });
  });

  it('sends no response even when a cancelled handler throws afterwards', async () => {
    const { protocol, transport, errors } = await connectedEngine();
    protocol.setRequestHandler('tools/call', (_params, context) => new Promise((_resolve, reject) => {
      context.signal.addEventListener('abort', () => reject(new Error('aborted')));
    }));
    transport.deliver({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'slow' } });
    await settle();
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    await settle();
    expect(transport.sent).toHaveLength(0);
    expect(errors).toHaveLength(0);
  });

  it('keeps the in-flight entry of a reused id when the cancelled handler that had it finishes', async () => {
    const { protocol, transport } = await connectedEngine();
    // The first handler ignores its abort for a while; every later one waits for its abort.
    let finishFirst!: () => void;
    const aborts: unknown[] = [];
    let calls = 0;
    protocol.setRequestHandler('tools/call', (_params, context) => {
      calls += 1;
      if (calls === 1) return new Promise((resolve) => (finishFirst = () => resolve({ content: [] })));
      return new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          aborts.push(context.signal.reason);
          resolve({ content: [] });
        });
      });
    });
    transport.deliver({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'first' } });
    await settle();
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    // Cancelled, so id 5 is free again: a second request takes it while the first still runs.
    transport.deliver({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'second' } });
    await settle();
    expect(calls).toBe(2);
    finishFirst();
    await settle();
    // The second request still holds id 5: a third is refused and a cancellation reaches the second.
    transport.deliver({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'third' } });
    await settle();
    expect(calls).toBe(2);
    expect(transport.unread).toBe(1);
    expect(await transport.nextMessage()).toMatchObject({ id: 5, error: { code: -32600, message: 'Invalid Request: id 5 is already in use' } });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'second' } });
    await settle();
    expect(aborts).toMatchObject([{ code: 'REQUEST_CANCELLED', message: 'Cancelled by peer: second' }]);
    expect(transport.unread).toBe(0);
  });

  it('ignores cancellation of unknown or finished requests', async () => {
    const { transport, errors } = await connectedEngine();
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'gone' } });
    await settle();
    expect(errors).toHaveLength(0);
    expect(transport.sent).toHaveLength(0);
  });

  it('cancels end to end between two engines', async () => {
    const { client, server } = await connectedPair();
    const aborted = vi.fn();
    const started = vi.fn();
    server.setRequestHandler('tools/call', (_params, context) => {
      started();
      context.signal.addEventListener('abort', aborted);
      return new Promise(() => undefined);
    });
    const controller = new AbortController();
    const pending = client.request('tools/call', { name: 'x' }, { signal: controller.signal });
    await vi.waitFor(() => expect(started).toHaveBeenCalled());
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await vi.waitFor(() => expect(aborted).toHaveBeenCalled());
  });
});

describe('Protocol: progress', () => {
  it('attaches a progress token, keeps other _meta, and routes progress to onprogress', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const updates: Progress[] = [];
    const pending = protocol.request('tools/call', { name: 'x', _meta: { trace: 'abc' } }, { onprogress: (p) => updates.push(p) });
    const request = await transport.nextMessage();
    expect(request.params._meta).toEqual({ trace: 'abc', progressToken: request.id });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: request.id, progress: 1 } });
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: request.id, progress: 2, total: 4, message: 'half' },
    });
    transport.deliver({ jsonrpc: '2.0', id: request.id, result: { content: [] } });
    await pending;
    expect(updates).toEqual([{ progress: 1 }, { progress: 2, total: 4, message: 'half' }]);
  });

  it('does not attach a token without onprogress or resetTimeoutOnProgress', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    void protocol.request('tools/call', { name: 'x' }).catch(() => undefined);
    expect((await transport.nextMessage()).params).toEqual({ name: 'x' });
  });

  it('reports progress for an unknown token', async () => {
    const { transport, errors } = await connectedEngine({ side: 'client' });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 77, progress: 1 } });
    await settle();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('77');
  });

  it('reports a throwing onprogress callback without failing the request', async () => {
    const { protocol, transport, errors } = await connectedEngine({ side: 'client' });
    const pending = protocol.request('ping', undefined, {
      onprogress: () => {
        throw new Error('callback broke');
      },
    });
    const { id } = await transport.nextMessage();
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1 } });
    transport.deliver({ jsonrpc: '2.0', id, result: {} });
    await expect(pending).resolves.toEqual({});
    expect(errors.map((e) => e.message)).toEqual(['callback broke']);
  });

  it('carries handler progress reports back to the caller end to end', async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler('tools/call', async (_params, context) => {
      await context.reportProgress(1, 3);
      await context.reportProgress(3, 3, 'done');
      return { content: [] };
    });
    const updates: Progress[] = [];
    await client.request('tools/call', { name: 'x' }, { onprogress: (p) => updates.push(p) });
    expect(updates).toEqual([{ progress: 1, total: 3 }, { progress: 3, total: 3, message: 'done' }]);
  });
});

describe('Protocol: handler context', () => {
  async function runHandler(use: (context: RequestContext) => Promise<unknown>, params: Record<string, unknown> = { name: 'x' }) {
    const harness = await connectedEngine();
    harness.protocol.setRequestHandler('tools/call', async (_params, context) => {
      await use(context);
      return { content: [] };
    });
    harness.transport.deliver({ jsonrpc: '2.0', id: 'req-1', method: 'tools/call', params });
    return harness;
  }

  it('sends notifications tied to the request', async () => {
    const { transport } = await runHandler((context) => context.sendNotification('notifications/message', { level: 'info', data: 'hi' }));
    const frame = await transport.next();
    expect(frame.message).toEqual({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } });
    expect(frame.options).toMatchObject({ relatedRequestId: 'req-1' });
  });

  it('logs through notifications/message', async () => {
    const { transport } = await runHandler(async (context) => {
      await context.log('warning', { detail: 1 });
      await context.log('error', 'text', 'my-logger');
    });
    expect((await transport.nextMessage()).params).toEqual({ level: 'warning', data: { detail: 1 } });
    const second = await transport.next();
    expect(second.message).toMatchObject({ params: { level: 'error', data: 'text', logger: 'my-logger' } });
    expect(second.options).toMatchObject({ relatedRequestId: 'req-1' });
  });

  it('makes reportProgress a no-op without a progress token and uses the token when given', async () => {
    const silent = await runHandler((context) => context.reportProgress(1));
    expect(await silent.transport.nextMessage()).toMatchObject({ id: 'req-1', result: {} });
    const noisy = await runHandler((context) => context.reportProgress(1, 2, 'm'), { name: 'x', _meta: { progressToken: 'tok' } });
    const frame = await noisy.transport.next();
    expect(frame.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'tok', progress: 1, total: 2, message: 'm' },
    });
    expect(frame.options).toMatchObject({ relatedRequestId: 'req-1' });
  });

  it('routes the cancellation of a timed-out nested request like the request itself', async () => {
    const harness = await connectedEngine();
    let nested: Promise<unknown> | undefined;
    harness.protocol.setRequestHandler('tools/call', (_params, context) => {
      nested = context.sendRequest('sampling/createMessage', { messages: [], maxTokens: 5 }, { timeout: 20 });
      return new Promise(() => undefined);
    });
    harness.transport.deliver({ jsonrpc: '2.0', id: 'req-1', method: 'tools/call', params: { name: 'x' } });
    const frame = await harness.transport.next();
    await expect(nested).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    const cancellation = await harness.transport.next();
    expect(cancellation.message).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: (frame.message as { id: number }).id },
    });
    expect(cancellation.options).toMatchObject({ relatedRequestId: 'req-1' });
  });

  it('sends requests tied to the request and cancels them when the request is cancelled', async () => {
    const harness = await connectedEngine();
    let nested: Promise<unknown> | undefined;
    harness.protocol.setRequestHandler('tools/call', (_params, context) => {
      nested = context.sendRequest('sampling/createMessage', { messages: [], maxTokens: 5 });
      return new Promise(() => undefined);
    });
    harness.transport.deliver({ jsonrpc: '2.0', id: 'req-1', method: 'tools/call', params: { name: 'x' } });
    const frame = await harness.transport.next();
    expect(frame.message).toMatchObject({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } });
    expect(frame.options).toMatchObject({ relatedRequestId: 'req-1' });
    harness.transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'req-1' } });
    await expect(nested).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    const cancellation = await harness.transport.next();
    expect(cancellation.message).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: (frame.message as { id: number }).id },
    });
    expect(cancellation.options).toMatchObject({ relatedRequestId: 'req-1' });
  });
});
