// The policies a host derives from an app resource's _meta.ui.
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, permissionsPolicy, withPolicy } from '../../../../runtime/features/apps/index.js';

describe('contentSecurityPolicy', () => {
  it('is the specification\'s restrictive default without csp metadata', () => {
    expect(contentSecurityPolicy()).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'",
    );
  });

  it('widens each directive by the declared origins only', () => {
    const policy = contentSecurityPolicy({ connectDomains: ['https://api.example.com', 'wss://live.example.com'], resourceDomains: ['https://*.cdn.example'], frameDomains: ['https://www.youtube.com'], baseUriDomains: ['https://base.example:8443'] });
    const directives = Object.fromEntries(policy.split('; ').map((directive) => [directive.split(' ')[0], directive]));
    expect(directives['connect-src']).toBe('connect-src https://api.example.com wss://live.example.com');
    expect(directives['script-src']).toBe("script-src 'self' 'unsafe-inline' https://*.cdn.example");
    expect(directives['img-src']).toBe("img-src 'self' data: https://*.cdn.example");
    expect(directives['frame-src']).toBe('frame-src https://www.youtube.com');
    expect(directives['base-uri']).toBe('base-uri https://base.example:8443');
    expect(directives['object-src']).toBe("object-src 'none'");
  });

  it.each([
    "https://a.example; script-src 'unsafe-eval'",
    "'unsafe-eval'",
    'https://a.example https://b.example',
    '*',
    'javascript:alert(1)',
    'https://a.example,https://b.example',
  ])('refuses %j, which is not one origin', (entry) => {
    expect(() => contentSecurityPolicy({ connectDomains: [entry] })).toThrow(/connectDomains holds/);
  });
});

describe('permissionsPolicy and withPolicy', () => {
  it('maps requested permissions to Permission Policy features', () => {
    expect(permissionsPolicy()).toBe('');
    expect(permissionsPolicy({ camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} })).toBe('camera; microphone; geolocation; clipboard-write');
  });

  it('puts the policy first, after a doctype, with its quotes escaped', () => {
    expect(withPolicy('<!DOCTYPE html><p>x</p>', "default-src 'none'")).toBe('<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src \'none\'"><p>x</p>');
    expect(withPolicy('<p>x</p>', 'a "b"')).toBe('<meta http-equiv="Content-Security-Policy" content="a &quot;b&quot;"><p>x</p>');
  });
});
