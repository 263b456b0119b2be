/** The principal a sealed request state and a task are bound to, read from a request's authentication. */
import { describe, expect, it } from 'vitest';
import { principalOf } from '../../../runtime/era/principal.js';

describe('principalOf', () => {
  it('prefers the subject and prefixes each kind, so that user "x" and client "x" differ', () => {
    expect(principalOf({ authInfo: { subject: 'x', clientId: 'app' } })).toBe('subject:x');
    expect(principalOf({ authInfo: { clientId: 'x' } })).toBe('client:x');
  });

  it('is undefined for an anonymous request or an authentication without a name', () => {
    expect(principalOf(undefined)).toBeUndefined();
    expect(principalOf({})).toBeUndefined();
    expect(principalOf({ authInfo: 'token' })).toBeUndefined();
    expect(principalOf({ authInfo: { subject: 7, clientId: null } })).toBeUndefined();
  });
});
