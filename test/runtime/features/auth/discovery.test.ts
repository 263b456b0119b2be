import { describe, expect, it } from 'vitest';
import { unionScopes } from '../../../../runtime/features/auth/authorizer.js';
import { bearerChallengeOf, formatBearerChallenge, parseChallenges } from '../../../../runtime/features/auth/challenge.js';
import { authorizationServerMetadataUrls, canonicalResource, protectedResourceMetadataUrls, resourceCovers } from '../../../../runtime/features/auth/discovery.js';

describe('WWW-Authenticate', () => {
  it('reads the Bearer challenge among several, with quoted and escaped values', () => {
    const header = 'DPoP algs="ES256", Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="needs \\"write\\""';
    expect(parseChallenges(header).map((challenge) => challenge.scheme)).toEqual(['dpop', 'bearer']);
    const response = new Response(null, { status: 403, headers: { 'www-authenticate': header } });
    expect(bearerChallengeOf(response)).toEqual({
      error: 'insufficient_scope',
      scope: 'files:read files:write',
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
      errorDescription: 'needs "write"',
    });
  });

  it('reads unquoted values and a bare scheme, and formats what it parses', () => {
    expect(parseChallenges('Bearer realm=mcp, error=invalid_token')).toEqual([{ scheme: 'bearer', params: { realm: 'mcp', error: 'invalid_token' } }]);
    expect(parseChallenges('Bearer')).toEqual([{ scheme: 'bearer', params: {} }]);
    const formatted = formatBearerChallenge({ error: 'invalid_token', scope: 'a "b"', skipped: undefined });
    expect(formatted).toBe('Bearer error="invalid_token", scope="a \\"b\\""');
    expect(parseChallenges(formatted)[0]!.params).toEqual({ error: 'invalid_token', scope: 'a "b"' });
  });
});

describe('metadata URLs', () => {
  it('tries the challenge URL, then the path-aware and the root Protected Resource Metadata', () => {
    expect(protectedResourceMetadataUrls(new URL('https://mcp.example.com/public/mcp?x=1'), 'https://mcp.example.com/custom.json')).toEqual([
      'https://mcp.example.com/custom.json',
      'https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp',
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
    expect(protectedResourceMetadataUrls(new URL('https://mcp.example.com/'))).toEqual(['https://mcp.example.com/.well-known/oauth-protected-resource']);
  });

  it('inserts an issuer path after the well-known prefix, and appends the OpenID suffix last', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com/tenant1')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
    expect(authorizationServerMetadataUrls('https://auth.example.com')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });
});

describe('resources and scopes', () => {
  it('accepts a resource that is the server or an ancestor on the same origin, nothing else', () => {
    const server = new URL('https://mcp.example.com/api/mcp');
    expect(resourceCovers('https://mcp.example.com/api/mcp', server)).toBe(true);
    expect(resourceCovers('https://mcp.example.com', server)).toBe(true);
    expect(resourceCovers('https://mcp.example.com/api/', server)).toBe(true);
    expect(resourceCovers('https://mcp.example.com/ap', server)).toBe(false);
    expect(resourceCovers('https://evil.example.com/api/mcp', server)).toBe(false);
    expect(resourceCovers('http://mcp.example.com/api/mcp', server)).toBe(false);
    expect(resourceCovers('not a url', server)).toBe(false);
  });

  it('canonicalises server URLs without query, fragment or a bare trailing slash', () => {
    expect(canonicalResource(new URL('https://MCP.example.com/?q#f'))).toBe('https://mcp.example.com');
    expect(canonicalResource(new URL('https://mcp.example.com:8443/mcp?q'))).toBe('https://mcp.example.com:8443/mcp');
  });

  it('unions scope lists in first-seen order', () => {
    expect(unionScopes('a b', 'b c')).toBe('a b c');
    expect(unionScopes(undefined, ' ')).toBeUndefined();
  });
});
