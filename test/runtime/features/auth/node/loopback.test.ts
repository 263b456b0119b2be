import { afterEach, describe, expect, it } from 'vitest';
import { openInBrowser, startLoopbackReceiver, type LoopbackReceiver } from '../../../../../runtime/node.js';

const receivers: LoopbackReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

describe('startLoopbackReceiver', () => {
  it('listens on 127.0.0.1, opens the URL and resolves with the redirect carrying the same state', async () => {
    const opened: string[] = [];
    const receiver = await startLoopbackReceiver({ openBrowser: (url) => void opened.push(url), timeoutMs: 5_000 });
    receivers.push(receiver);
    expect(receiver.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const pending = receiver.redirectToAuthorization(new URL('https://as.example.com/authorize?state=abc'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(opened).toEqual(['https://as.example.com/authorize?state=abc']);
    // A forged redirect (another state) is refused and does not end the wait.
    const forged = await fetch(`${receiver.redirectUrl}?code=evil&state=forged`);
    expect(forged.status).toBe(400);
    const real = await fetch(`${receiver.redirectUrl}?code=good&state=abc&iss=https%3A%2F%2Fas.example.com`);
    expect(real.status).toBe(200);
    const callback = await pending;
    expect(callback.searchParams.get('code')).toBe('good');
    expect(callback.searchParams.get('iss')).toBe('https://as.example.com');
  });

  it('gives up after the timeout', async () => {
    const receiver = await startLoopbackReceiver({ openBrowser: () => undefined, timeoutMs: 50 });
    receivers.push(receiver);
    await expect(receiver.redirectToAuthorization(new URL('https://as.example.com/authorize?state=s'))).rejects.toThrow(/within 50 ms/);
  });

  it.each(['file:///etc/passwd', 'search-ms:query=x&crumb=location:\\\\attacker\\share', 'ms-settings:', 'http://as.example.com/authorize?state=s'])(
    'refuses to open %s, with its own opener or the application\'s',
    async (href) => {
      expect(() => openInBrowser(href)).toThrow(/must be https \(or http on loopback\)/);
      const opened: string[] = [];
      const receiver = await startLoopbackReceiver({ openBrowser: (url) => void opened.push(url), timeoutMs: 5_000 });
      receivers.push(receiver);
      const url = new URL(href);
      url.searchParams.set('state', 's');
      await expect(receiver.redirectToAuthorization(url)).rejects.toThrow(/Refusing the browser URL/);
      expect(opened).toEqual([]);
    },
  );
});
