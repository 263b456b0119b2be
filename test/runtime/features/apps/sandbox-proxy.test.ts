// runSandboxProxy against a stand-in window: what it hears from whom, what it relays where, and
// the View frame it builds from the host's resource (the real browser run is browser.test.ts).
import { describe, expect, it } from 'vitest';
import { runSandboxProxy } from '../../../../runtime/features/apps/index.js';

const HOST = 'https://host.example';

function fakeWindow() {
  const listeners = new Set<(event: MessageEvent) => void>();
  const toParent: [unknown, string][] = [];
  const toView: [unknown, string][] = [];
  const parent = { postMessage: (data: unknown, origin: string) => void toParent.push([data, origin]) };
  const viewWindow = { postMessage: (data: unknown, origin: string) => void toView.push([data, origin]) };
  const frames: { attributes: Record<string, string>; srcdoc: string; removed: boolean }[] = [];
  const document = {
    createElement: () => {
      const frame = { attributes: {} as Record<string, string>, srcdoc: '', removed: false, style: { cssText: '' }, contentWindow: viewWindow, setAttribute: (name: string, value: string) => void (frame.attributes[name] = value), remove: () => void (frame.removed = true) };
      frames.push(frame);
      return frame;
    },
    body: { appendChild: () => {} },
  };
  const win = { parent, document, addEventListener: (_: string, listener: (event: MessageEvent) => void) => void listeners.add(listener), removeEventListener: (_: string, listener: (event: MessageEvent) => void) => void listeners.delete(listener) };
  const dispatch = (data: unknown, source: unknown, origin: string) => listeners.forEach((listener) => listener({ data, source, origin } as MessageEvent));
  return { win: win as unknown as Window, parent, viewWindow, toParent, toView, frames, listeners, dispatch };
}

const ready = (params: unknown) => ({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params });

describe('runSandboxProxy', () => {
  it('announces itself to the host origin and renders the View the host sends under its CSP', () => {
    const w = fakeWindow();
    const proxy = runSandboxProxy({ hostOrigin: HOST, window: w.win });
    expect(w.toParent).toEqual([[{ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, HOST]]);
    // The same message from another origin, or from another window, renders nothing.
    w.dispatch(ready({ html: '<p>evil</p>' }), w.parent, 'https://evil.example');
    w.dispatch(ready({ html: '<p>evil</p>' }), {}, HOST);
    expect(proxy.frame).toBeUndefined();
    w.dispatch(ready({ html: '<!doctype html><p>hi</p>', csp: { connectDomains: ['https://api.example.com'] }, permissions: { camera: {} } }), w.parent, HOST);
    expect(w.frames).toHaveLength(1);
    expect(w.frames[0]!.attributes).toEqual({ sandbox: 'allow-scripts allow-forms', allow: 'camera' });
    expect(w.frames[0]!.srcdoc).toMatch(/^<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src 'none';.*connect-src https:\/\/api\.example\.com;.*"><p>hi<\/p>$/);
  });

  it('relays both ways except the sandbox-* notifications, and stops on stop()', () => {
    const w = fakeWindow();
    const proxy = runSandboxProxy({ hostOrigin: HOST, window: w.win });
    w.dispatch(ready({ html: '<p>v</p>' }), w.parent, HOST);
    w.toParent.length = 0;
    w.dispatch({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: {} } }, w.parent, HOST);
    w.dispatch({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, w.parent, HOST);
    expect(w.toView).toEqual([[{ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: {} } }, '*']]);
    w.dispatch({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} }, w.viewWindow, 'null');
    // The View may not speak for the proxy, and strangers are not heard.
    w.dispatch(ready({ html: '<p>swap</p>' }), w.viewWindow, 'null');
    w.dispatch({ jsonrpc: '2.0', id: 2, method: 'ping' }, {}, 'null');
    expect(w.toParent).toEqual([[{ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} }, HOST]]);
    expect(w.frames).toHaveLength(1);
    proxy.stop();
    expect(w.listeners.size).toBe(0);
    expect(w.frames[0]!.removed).toBe(true);
  });

  it('reports a resource the schema or the CSP check refuses, rendering nothing, and refuses a hostOrigin that is no origin', () => {
    const w = fakeWindow();
    const errors: string[] = [];
    const proxy = runSandboxProxy({ hostOrigin: HOST, window: w.win, onerror: (error) => errors.push(error.message) });
    w.dispatch(ready({ html: 42 }), w.parent, HOST);
    w.dispatch(ready({ html: '<p>x</p>', csp: { connectDomains: ["https://a.example; script-src 'unsafe-eval'"] } }), w.parent, HOST);
    expect(proxy.frame).toBeUndefined();
    expect(errors).toEqual([expect.stringMatching(/invalid ui\/notifications\/sandbox-resource-ready/), expect.stringMatching(/connectDomains holds/)]);
    expect(() => runSandboxProxy({ hostOrigin: 'not an origin', window: w.win })).toThrow(/is not an origin/);
  });
});
