// DNS-rebinding protection (Host and Origin allowlists) and opt-in CORS of the HTTP server,
// through the Fetch core.
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpHttpHandler, type McpHttpHandler, type McpHttpHandlerOptions } from '../../../../runtime/index.js';
import { hostMatches, originMatches } from '../../../../runtime/transports/http/security.js';
import { createHttpTestServer, initializeRequest, POST_HEADERS } from './server-support.js';

let mcp: McpHttpHandler;
afterEach(async () => {
  await mcp?.close();
});

function handler(options: Partial<McpHttpHandlerOptions> = {}): McpHttpHandler {
  mcp = createMcpHttpHandler({ server: createHttpTestServer, ...options });
  return mcp;
}

/** POSTs an initialize; `host` sets the URL (and so the Host header) the request carries. */
function initialize(host: string, headers: Record<string, string> = {}, localAddress = '127.0.0.1'): Promise<Response> {
  return mcp.fetch(
    new Request(`http://${host}/mcp`, { method: 'POST', headers: { ...POST_HEADERS, host, ...headers }, body: JSON.stringify(initializeRequest('2025-11-25')) }),
    { localAddress },
  );
}

describe('DNS-rebinding protection on loopback', () => {
  it('accepts loopback Host names on any port and same-machine origins', async () => {
    handler();
    for (const host of ['127.0.0.1:3000', 'localhost:8080', 'LOCALHOST', '[::1]:9']) {
      expect((await initialize(host)).status, host).toBe(200);
    }
    expect((await initialize('localhost:3000', { origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await initialize('localhost:3000', { origin: 'http://127.0.0.1:3000' })).status).toBe(200);
  });

  it('refuses a foreign Host that follows an accepted one, and accepts the first again after it', async () => {
    handler();
    for (const [host, status] of [['localhost:3000', 200], ['attacker.example:3000', 403], ['localhost:3000', 200], ['localhost.attacker.example', 403]] as const) {
      expect((await initialize(host)).status, host).toBe(status);
    }
  });

  it('refuses a foreign Host with 403 (a rebound DNS name)', async () => {
    handler();
    const response = await initialize('attacker.example:3000');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32000 } });
    expect(mcp.sessions.size).toBe(0);
  });

  it('refuses a foreign Origin with 403 on every method', async () => {
    handler();
    const origin = { origin: 'https://evil.example' };
    expect((await initialize('localhost:3000', origin)).status).toBe(403);
    for (const method of ['GET', 'DELETE', 'OPTIONS']) {
      const response = await mcp.fetch(new Request('http://localhost:3000/mcp', { method, headers: { host: 'localhost:3000', ...origin } }), { localAddress: '127.0.0.1' });
      expect(response.status, method).toBe(403);
    }
    expect((await initialize('localhost:3000', { origin: 'http://localhost.evil.example' })).status).toBe(403);
    expect((await initialize('localhost:3000', { origin: 'null' })).status).toBe(403);
  });

  it('can be switched off for a proxy or platform that checks Host and Origin itself', async () => {
    handler({ dnsRebindingProtection: false });
    expect((await initialize('attacker.example', { origin: 'https://evil.example' })).status).toBe(200);
    expect((await initialize('mcp.example.com', {}, '10.0.0.5')).status).toBe(200);
  });

  it('checks configured allowlists instead of loopback, and trusts pages of an allowed host', async () => {
    handler({ allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] });
    expect((await initialize('mcp.example.com:443', { origin: 'https://app.example.com' }, '10.0.0.5')).status).toBe(200);
    expect((await initialize('other.example.com', {}, '10.0.0.5')).status).toBe(403);
    expect((await initialize('localhost:3000', {}, '127.0.0.1')).status).toBe(403);
    expect((await initialize('mcp.example.com', { origin: 'https://app.example.com:8443' }, '10.0.0.5')).status).toBe(403);
    await mcp.close();
    handler({ allowedHosts: ['mcp.example.com'] });
    expect((await initialize('mcp.example.com', { origin: 'https://mcp.example.com' })).status).toBe(200);
    expect((await initialize('mcp.example.com', { origin: 'https://evil.example' })).status).toBe(403);
    expect((await initialize('mcp.example.com', { origin: 'http://localhost:5173' })).status).toBe(403);
  });
});

describe('DNS-rebinding protection of the Fetch handler by default', () => {
  /** A POST as a Worker, Deno or Bun hands it over: no local address. */
  function post(host: string, headers: Record<string, string> = {}): Promise<Response> {
    return mcp.fetch(
      new Request('http://localhost:3000/mcp', { method: 'POST', headers: { ...POST_HEADERS, host, ...headers }, body: JSON.stringify(initializeRequest('2025-11-25')) }),
    );
  }

  it('refuses a foreign Host and Origin when the platform does not tell the local address', async () => {
    handler();
    expect((await post('evil.com:8080', { origin: 'http://evil.com' })).status).toBe(403);
    expect((await post('evil.com:8080')).status).toBe(403);
    expect((await post('localhost:8080', { origin: 'http://evil.com' })).status).toBe(403);
    expect((await initialize('mcp.example.com', {}, '10.0.0.5')).status).toBe(403);
    expect(mcp.sessions.size).toBe(0);
    expect((await post('localhost:8080', { origin: 'http://localhost:8080' })).status).toBe(200);
  });

  it('parses Host strictly: no userinfo, no path, digits-only port, bracketed IPv6', async () => {
    handler();
    const refused = [
      'localhost:1@evil.com',
      'localhost@evil.com',
      'evil.com@localhost',
      'localhost:3000/evil',
      'localhost:3000?x',
      'localhost:',
      'localhost:30x0',
      'localhost:3000:1',
      'localhost:99999',
      'localhost.',
      '::1',
      '[::1',
      '[::1]3000',
      '[::1]:',
      '[::1]:3000x',
      '[::1%25eth0]:3000',
      '127.0.0.1.evil.com',
    ];
    for (const host of refused) {
      expect((await post(host)).status, host).toBe(403);
    }
    for (const host of ['localhost', 'LocalHost:3000', '127.0.0.1:65535', '[::1]', '[::1]:3000']) {
      expect((await post(host)).status, host).toBe(200);
    }
  });

  it('compares host and port exactly against configured entries', () => {
    expect(hostMatches('mcp.example.com:443', 'mcp.example.com:443')).toBe(true);
    expect(hostMatches('mcp.example.com:443', 'mcp.example.com:4430')).toBe(false);
    expect(hostMatches('mcp.example.com:443', 'mcp.example.com')).toBe(false);
    expect(hostMatches('mcp.example.com', 'mcp.example.com.evil.com')).toBe(false);
    expect(hostMatches('mcp.example.com', 'mcp.example.com:1@evil.com')).toBe(false);
    expect(hostMatches('[::1]:8080', '[::1]:8080')).toBe(true);
    expect(hostMatches('[::1]:8080', '[::1]:8081')).toBe(false);
  });
});

describe('CORS', () => {
  it('answers preflights with the MCP headers and exposes Mcp-Session-Id', async () => {
    handler({ cors: true });
    const preflight = await mcp.fetch(
      new Request('http://localhost:3000/mcp', {
        method: 'OPTIONS',
        headers: { host: 'localhost:3000', origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      }),
      { localAddress: '127.0.0.1' },
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const name of ['mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'authorization', 'content-type']) {
      expect(allowed).toContain(name);
    }
    expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE');
    const response = await initialize('localhost:3000', { origin: 'http://localhost:5173' });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
  });

  it('allows the stateless era request headers, including the Mcp-Param-* ones a browser asks for', async () => {
    handler({ cors: true });
    const preflight = await mcp.fetch(
      new Request('http://localhost:3000/mcp', {
        method: 'OPTIONS',
        headers: {
          host: 'localhost:3000',
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-method, mcp-name, mcp-param-region, x-other',
        },
      }),
      { localAddress: '127.0.0.1' },
    );
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase().split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['mcp-method', 'mcp-name', 'mcp-param-region']));
    expect(allowed).not.toContain('x-other');
  });

  it('limits CORS to configured origins, which the Origin check then trusts', async () => {
    handler({ cors: { origins: ['https://app.example.com'] } });
    const trusted = await initialize('localhost:3000', { origin: 'https://app.example.com' });
    expect(trusted.status).toBe(200);
    expect(trusted.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const local = await initialize('localhost:3000', { origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    expect(local.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with cors: true and no origins, grants pages of accepted hosts only, even with the rebinding checks off', async () => {
    handler({ cors: true, dnsRebindingProtection: false });
    const foreign = await initialize('mcp.example.com', { origin: 'https://evil.example' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await mcp.fetch(
      new Request('http://mcp.example.com/mcp', {
        method: 'OPTIONS',
        headers: { host: 'mcp.example.com', origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      }),
      { localAddress: '10.0.0.5' },
    );
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const local = await initialize('mcp.example.com', { origin: 'http://localhost:5173' });
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('is off by default: no CORS headers, OPTIONS gets 405', async () => {
    handler();
    const response = await initialize('localhost:3000', { origin: 'http://localhost:5173' });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await mcp.fetch(new Request('http://localhost:3000/mcp', { method: 'OPTIONS', headers: { host: 'localhost:3000' } }), { localAddress: '127.0.0.1' });
    expect(preflight.status).toBe(405);
  });
});

describe('matchers', () => {
  it('match hosts and origins', () => {
    expect(hostMatches('localhost', 'localhost:1234')).toBe(true);
    expect(hostMatches('localhost:80', 'localhost:1234')).toBe(false);
    expect(hostMatches('[::1]', '[::1]:5')).toBe(true);
    expect(hostMatches('example.com:*', 'example.com:99')).toBe(true);
    expect(originMatches('http://localhost:*', 'http://localhost')).toBe(true);
    expect(originMatches('http://localhost:*', 'http://localhost:1/x')).toBe(false);
    expect(originMatches('https://a.example', 'https://a.example:444')).toBe(false);
  });
});
