import { afterEach, describe, expect, it, vi } from 'vitest';
import { SdkError } from '../../../runtime/core/errors.js';
import {
  createRequestStateBinding,
  defaultRequestStateCodec,
  digestArguments,
  RequestStateCodec,
  RequestStateError,
  type RequestStateBinding,
  type RequestStateErrorReason,
  type RequestStateKey,
} from '../../../runtime/era/request-state.js';

const K1: RequestStateKey = { id: 'k1', secret: 'first secret, at least 32 bytes long!' };
const K2: RequestStateKey = { id: 'k2', secret: crypto.getRandomValues(new Uint8Array(32)) };
const SECRET_ANSWER = 'octocat-secret-answer';

/** The binding of a `deploy` tool call; `subject` null means an anonymous caller. */
async function bindingOf(args: unknown = { repo: 'mcpgen', branch: 'main' }, subject: string | null = 'user-42'): Promise<RequestStateBinding> {
  return createRequestStateBinding({ method: 'tools/call', target: 'deploy', arguments: args, subject: subject ?? undefined });
}

function state(binding: RequestStateBinding, round = 1) {
  return { binding, round, answers: { github_login: { action: 'accept', content: { name: SECRET_ANSWER } } }, user: { step: 'confirm', attempts: [1, 2] } };
}

/** The rejection of `promise`, checked to be a RequestStateError with `reason`. */
async function refusal(promise: Promise<unknown>, reason: RequestStateErrorReason): Promise<RequestStateError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestStateError);
  const refused = error as RequestStateError;
  expect(refused.reason).toBe(reason);
  expect(refused.name).toBe('RequestStateError');
  expect(refused.message).toMatch(/^requestState /);
  // Messages go back to the client: never the secret, never the payload.
  expect(refused.message).not.toContain(SECRET_ANSWER);
  expect(refused.message).not.toContain('first secret');
  expect(refused.message).not.toContain('user-42');
  return refused;
}

function decodePart(token: string, index: number): string {
  return Buffer.from(token.split('.')[index]!, 'base64url').toString('latin1');
}

/** `token` with the character at `index` of part `part` replaced by another base64url character. */
function tamper(token: string, part: number, index = 0): string {
  const parts = token.split('.');
  const text = parts[part]!;
  const at = index < 0 ? text.length + index : index;
  const replacement = text[at] === 'A' ? 'B' : 'A';
  parts[part] = text.slice(0, at) + replacement + text.slice(at + 1);
  return parts.join('.');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('RequestStateCodec round trips', () => {
  it('seals and opens a signed state whose payload the client can read', async () => {
    const codec = new RequestStateCodec({ keys: [K1], now: () => 1_000_000 });
    const binding = await bindingOf();
    const token = await codec.seal(state(binding, 2));
    expect(token).toMatch(/^v1\.k1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(decodePart(token, 2))).toMatchObject({ m: 'tools/call', t: 'deploy', s: 'user-42', r: 2 });
    expect(decodePart(token, 2)).toContain(SECRET_ANSWER);

    const opened = await codec.open(token, binding);
    expect(opened).toEqual({ binding, round: 2, answers: state(binding).answers, user: state(binding).user, expiresAt: 1_000_000 + 600_000 });
  });

  it('seals and opens an encrypted state whose payload the client cannot read', async () => {
    const codec = new RequestStateCodec({ keys: [K1], encrypt: true });
    const binding = await bindingOf();
    const token = await codec.seal(state(binding));
    expect(token).toMatch(/^v1e\.k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain(Buffer.from(SECRET_ANSWER).toString('base64url').slice(0, 12));
    for (let part = 0; part < 4; part++) {
      expect(decodePart(token, part)).not.toContain(SECRET_ANSWER);
      expect(decodePart(token, part)).not.toContain('deploy');
    }
    const opened = await codec.open(token, binding);
    expect(opened.answers).toEqual(state(binding).answers);
    expect(opened.user).toEqual(state(binding).user);
    expect(opened.binding).toEqual(binding);
  });

  it('uses a fresh IV per encrypted seal', async () => {
    const codec = new RequestStateCodec({ keys: [K1], encrypt: true, now: () => 5 });
    const binding = await bindingOf();
    const [a, b] = [await codec.seal(state(binding)), await codec.seal(state(binding))];
    expect(a).not.toBe(b);
    expect(a.split('.')[2]).not.toBe(b.split('.')[2]);
  });

  it('keeps answers and user exactly, and leaves out user and subject when absent', async () => {
    const codec = new RequestStateCodec({ keys: [K1] });
    const binding = await bindingOf({}, null);
    const answers = { a: { nested: [1, 'two', null, true] }, unicode: 'héllo ✓ 😀' };
    const opened = await codec.open(await codec.seal({ binding, round: 1, answers }), binding);
    expect(opened.answers).toEqual(answers);
    expect('user' in opened).toBe(false);
    expect('subject' in opened.binding).toBe(false);
  });

  it('works as the documented example shows', async () => {
    const newSecret = crypto.getRandomValues(new Uint8Array(32));
    const oldSecret = 'an old secret of at least 32 bytes....';
    const codec = new RequestStateCodec({
      keys: [{ id: 'k2', secret: newSecret }, { id: 'k1', secret: oldSecret }],
      encrypt: true,
    });
    const binding = await createRequestStateBinding({ method: 'tools/call', target: 'deploy', arguments: { env: 'prod' }, subject: 'user-42' });
    const requestState = await codec.seal({ binding, round: 1, answers: {} });
    const state = await codec.open(requestState, binding);
    expect(state.round).toBe(1);
  });
});

describe('RequestStateCodec refuses altered states', () => {
  it('refuses a signed token with a changed payload, MAC, key id or structure', async () => {
    const codec = new RequestStateCodec({ keys: [K1, K2] });
    const binding = await bindingOf();
    const token = await codec.seal(state(binding));
    await expect(codec.open(token, binding)).resolves.toBeDefined();

    await refusal(codec.open(tamper(token, 2, 10), binding), 'bad-signature');
    await refusal(codec.open(tamper(token, 2, -1), binding), 'bad-signature');
    await refusal(codec.open(tamper(token, 3, 0), binding), 'bad-signature');
    // A payload the attacker re-encoded: valid JSON, still not signed.
    const forged = JSON.parse(decodePart(token, 2)) as Record<string, unknown>;
    forged.s = 'admin';
    const parts = token.split('.');
    await refusal(codec.open([parts[0], parts[1], Buffer.from(JSON.stringify(forged)).toString('base64url'), parts[3]].join('.'), binding), 'bad-signature');
    // Another key this server holds: the MAC does not match it.
    await refusal(codec.open(token.replace('.k1.', '.k2.'), binding), 'bad-signature');
    const unknown = await refusal(codec.open(token.replace('.k1.', '.k9.'), binding), 'unknown-key');
    expect(unknown.message).toContain('"k9"');
    await refusal(codec.open(token.replace('.k1.', '.k!1.'), binding), 'malformed');

    await refusal(codec.open(token.slice(0, -1), binding), 'malformed');
    await refusal(codec.open(`${token}.x`, binding), 'malformed');
    await refusal(codec.open(token.replace(/^v1\./, 'v2.'), binding), 'malformed');
    await refusal(codec.open(parts.slice(1).join('.'), binding), 'malformed');
    await refusal(codec.open('', binding), 'malformed');
    await refusal(codec.open(42 as unknown as string, binding), 'malformed');
  });

  it('accepts exactly one spelling of a token (no malleable base64 padding bits)', async () => {
    const codec = new RequestStateCodec({ keys: [K1] });
    const binding = await bindingOf();
    const token = await codec.seal(state(binding));
    const mac = token.split('.')[3]!;
    // 32 bytes take 43 characters: the last one carries 2 unused bits, which must be zero.
    const last = mac.charCodeAt(42);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(String.fromCharCode(last)) | 1]!;
    await refusal(codec.open(`${token.slice(0, -1)}${sibling}`, binding), 'malformed');
  });

  it('refuses an encrypted token with a changed IV, ciphertext, tag or key id', async () => {
    const codec = new RequestStateCodec({ keys: [K1, K2], encrypt: true });
    const binding = await bindingOf();
    const token = await codec.seal(state(binding));
    await refusal(codec.open(tamper(token, 2, 3), binding), 'bad-signature');
    await refusal(codec.open(tamper(token, 3, 5), binding), 'bad-signature');
    await refusal(codec.open(tamper(token, 3, -3), binding), 'bad-signature');
    await refusal(codec.open(token.replace('.k1.', '.k2.'), binding), 'bad-signature');
    await refusal(codec.open(token.replace('.k1.', '.k3.'), binding), 'unknown-key');
    // Relabelled as a signed token: the "MAC" part has the wrong length.
    await refusal(codec.open(token.replace(/^v1e\./, 'v1.'), binding), 'malformed');
    const [version, kid, iv] = token.split('.');
    await refusal(codec.open([version, kid, iv, 'AAAA'].join('.'), binding), 'malformed');
    await refusal(codec.open([version, kid, 'AAAA', token.split('.')[3]].join('.'), binding), 'malformed');
  });

  it('refuses a token sealed under the same key id with a different secret', async () => {
    const ours = new RequestStateCodec({ keys: [K1] });
    const theirs = new RequestStateCodec({ keys: [{ id: 'k1', secret: 'some other secret that is 32+ bytes' }] });
    const binding = await bindingOf();
    await refusal(ours.open(await theirs.seal(state(binding)), binding), 'bad-signature');
    const theirsEncrypted = new RequestStateCodec({ keys: [{ id: 'k1', secret: 'some other secret that is 32+ bytes' }], encrypt: true });
    await refusal(ours.open(await theirsEncrypted.seal(state(binding)), binding), 'bad-signature');
  });

  it('refuses an oversize token before doing any cryptography', async () => {
    const codec = new RequestStateCodec({ keys: [K1] });
    const binding = await bindingOf();
    const verify = vi.spyOn(crypto.subtle, 'verify');
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    const huge = `v1.k1.${'A'.repeat(70_000)}.${'A'.repeat(43)}`;
    const error = await refusal(codec.open(huge, binding), 'malformed');
    expect(error.message).toContain('65536');
    await refusal(codec.open(`v1e.k1.${'A'.repeat(16)}.${'A'.repeat(70_000)}`, binding), 'malformed');
    expect(verify).not.toHaveBeenCalled();
    expect(decrypt).not.toHaveBeenCalled();

    const small = new RequestStateCodec({ keys: [K1], maxTokenLength: 200 });
    await refusal(small.open(`v1.k1.${'A'.repeat(200)}.x`, binding), 'malformed');
  });

  it('will not seal a state whose token would be too large or that is not JSON', async () => {
    const codec = new RequestStateCodec({ keys: [K1] });
    const binding = await bindingOf();
    const tooBig = codec.seal({ binding, round: 1, answers: { blob: 'x'.repeat(60_000) } });
    await expect(tooBig).rejects.toBeInstanceOf(SdkError);
    await expect(tooBig).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    // Just under the limit as JSON, over it once base64-encoded.
    await expect(codec.seal({ binding, round: 1, answers: { blob: 'x'.repeat(50_000) } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(codec.seal({ binding, round: 1, answers: { blob: 'x'.repeat(40_000) } })).resolves.toMatch(/^v1\./);
    await expect(codec.seal({ binding, round: 1, answers: { n: 1n } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(codec.seal({ binding, round: 1, answers: [] as unknown as Record<string, unknown> })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('RequestStateCodec binding', () => {
  it('refuses a state presented on a different method, target, arguments or principal', async () => {
    const codec = new RequestStateCodec({ keys: [K1] });
    const binding = await bindingOf();
    for (const encrypt of [false, true]) {
      const sealer = new RequestStateCodec({ keys: [K1], encrypt });
      const token = await sealer.seal(state(binding));
      const cases: Array<[RequestStateBinding, keyof RequestStateBinding]> = [
        [{ ...binding, method: 'prompts/get' }, 'method'],
        [{ ...binding, target: 'rollback' }, 'target'],
        [await bindingOf({ repo: 'mcpgen', branch: 'dev' }), 'argumentsDigest'],
        [{ ...binding, subject: 'user-43' }, 'subject'],
        [{ ...binding, subject: undefined }, 'subject'],
      ];
      for (const [expected, field] of cases) {
        const error = await refusal(codec.open(token, expected), 'binding-mismatch');
        expect(error.field).toBe(field);
      }
    }
  });

  it('refuses a state issued anonymously when a principal presents it', async () => {
    const codec = new RequestStateCodec({ keys: [K1] });
    const anonymous = await bindingOf(undefined, null);
    const token = await codec.seal(state(anonymous));
    await expect(codec.open(token, anonymous)).resolves.toBeDefined();
    const error = await refusal(codec.open(token, { ...anonymous, subject: 'user-42' }), 'binding-mismatch');
    expect(error.message).toBe('requestState was issued for a different principal');
  });

  it('matches arguments whatever their key order', async () => {
    const codec = new RequestStateCodec({ keys: [K1] });
    const token = await codec.seal(state(await bindingOf({ repo: 'mcpgen', branch: 'main' })));
    await expect(codec.open(token, await bindingOf({ branch: 'main', repo: 'mcpgen' }))).resolves.toBeDefined();
  });
});

describe('RequestStateCodec expiry and rounds', () => {
  it('expires a state ttlMs after sealing, by the injected clock', async () => {
    let now = 1_700_000_000_000;
    const codec = new RequestStateCodec({ keys: [K1], ttlMs: 30_000, now: () => now });
    const binding = await bindingOf();
    for (const encrypt of [false, true]) {
      const sealer = new RequestStateCodec({ keys: [K1], ttlMs: 30_000, now: () => now, encrypt });
      now = 1_700_000_000_000;
      const token = await sealer.seal(state(binding));
      now += 29_999;
      expect((await codec.open(token, binding)).expiresAt).toBe(1_700_000_030_000);
      now += 1;
      await refusal(codec.open(token, binding), 'expired');
    }
  });

  it('checks expiry after the signature, so a forged deadline is a bad signature', async () => {
    let now = 0;
    const codec = new RequestStateCodec({ keys: [K1], ttlMs: 1_000, now: () => now });
    const binding = await bindingOf();
    const token = await codec.seal(state(binding));
    now = 5_000;
    const parts = token.split('.');
    const payload = JSON.parse(decodePart(token, 2)) as Record<string, unknown>;
    payload.e = 10_000;
    await refusal(codec.open([parts[0], parts[1], Buffer.from(JSON.stringify(payload)).toString('base64url'), parts[3]].join('.'), binding), 'bad-signature');
  });

  it('seals up to maxRounds rounds and no more', async () => {
    const codec = new RequestStateCodec({ keys: [K1] });
    const binding = await bindingOf();
    await expect(codec.open(await codec.seal(state(binding, 8)), binding)).resolves.toMatchObject({ round: 8 });
    const error = await refusal(codec.seal(state(binding, 9)), 'too-many-rounds');
    expect(error.message).toContain('8 rounds');

    const strict = new RequestStateCodec({ keys: [K1], maxRounds: 2 });
    await refusal(strict.seal(state(binding, 3)), 'too-many-rounds');
    // A limit lowered since sealing applies to states in flight too.
    await refusal(strict.open(await codec.seal(state(binding, 5)), binding), 'too-many-rounds');

    for (const round of [0, -1, 1.5, Number.NaN]) {
      await expect(codec.seal(state(binding, round))).rejects.toMatchObject({ name: 'SdkError', code: 'INVALID_ARGUMENT' });
    }
  });
});

describe('RequestStateCodec keys', () => {
  it('opens states of an old key after a new key is prepended, and refuses them once it is removed', async () => {
    const binding = await bindingOf();
    for (const encrypt of [false, true]) {
      const before = new RequestStateCodec({ keys: [K1], encrypt });
      const rotated = new RequestStateCodec({ keys: [K2, K1], encrypt });
      const retired = new RequestStateCodec({ keys: [K2], encrypt });

      const old = await before.seal(state(binding));
      expect(old.split('.')[1]).toBe('k1');
      await expect(rotated.open(old, binding)).resolves.toMatchObject({ round: 1 });
      await refusal(retired.open(old, binding), 'unknown-key');

      const fresh = await rotated.seal(state(binding));
      expect(fresh.split('.')[1]).toBe('k2');
      await expect(retired.open(fresh, binding)).resolves.toMatchObject({ round: 1 });
      // A replica not yet rolled out with the new key.
      await refusal(before.open(fresh, binding), 'unknown-key');
    }
  });

  it('lets two replicas sharing keys finish each other’s requests, in either mode', async () => {
    const binding = await bindingOf();
    const a = new RequestStateCodec({ keys: [K2, K1] });
    const b = new RequestStateCodec({ keys: [K2, K1], encrypt: true });
    const first = await a.seal(state(binding, 1));
    const opened = await b.open(first, binding);
    const second = await b.seal({ binding, round: opened.round + 1, answers: { ...opened.answers, more: 'yes' } });
    const final = await a.open(second, binding);
    expect(final.round).toBe(2);
    expect(final.answers).toEqual({ ...state(binding).answers, more: 'yes' });
  });

  it('uses one random key per process by default, shared by codecs of the process only', async () => {
    const binding = await bindingOf();
    const a = new RequestStateCodec();
    const b = new RequestStateCodec({ encrypt: true });
    const token = await a.seal(state(binding));
    expect(token).toMatch(/^v1\.local-[A-Za-z0-9_-]{8}\./);
    await expect(b.open(token, binding)).resolves.toBeDefined();
    await expect(a.open(await b.seal(state(binding)), binding)).resolves.toBeDefined();
    expect(defaultRequestStateCodec()).toBe(defaultRequestStateCodec());
    await expect(defaultRequestStateCodec().open(token, binding)).resolves.toBeDefined();
    // Another replica with its own keys cannot open it, and says so.
    const error = await refusal(new RequestStateCodec({ keys: [K1] }).open(token, binding), 'unknown-key');
    expect(error.message).toContain('replicas must share keys');
  });

  it('imports and derives each key once, however many states it seals and opens', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const deriveKey = vi.spyOn(crypto.subtle, 'deriveKey');
    const codec = new RequestStateCodec({ keys: [K1] });
    const binding = await bindingOf();
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => codec.seal(state(binding, (i % 8) + 1))));
    await Promise.all(tokens.map((token) => codec.open(token, binding)));
    expect(importKey).toHaveBeenCalledTimes(1);
    expect(deriveKey).toHaveBeenCalledTimes(1);
    // Encryption derives its own key from the same imported secret.
    const encrypted = new RequestStateCodec({ keys: [K1], encrypt: true });
    for (let i = 0; i < 5; i++) await encrypted.open(await encrypted.seal(state(binding)), binding);
    expect(importKey).toHaveBeenCalledTimes(2);
    expect(deriveKey).toHaveBeenCalledTimes(2);
  });

  it('refuses short secrets and bad key lists at construction', () => {
    const invalid = (options: ConstructorParameters<typeof RequestStateCodec>[0]) => {
      let error: unknown;
      try {
        new RequestStateCodec(options);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe('INVALID_ARGUMENT');
      return (error as SdkError).message;
    };
    const short = invalid({ keys: [{ id: 'k', secret: 'x'.repeat(31) }] });
    expect(short).toContain('31 bytes');
    expect(short).not.toContain('x'.repeat(31));
    invalid({ keys: [{ id: 'k', secret: new Uint8Array(16) }] });
    // 11 characters, but 33 UTF-8 bytes: enough.
    expect(() => new RequestStateCodec({ keys: [{ id: 'k', secret: '✓✓✓✓✓✓✓✓✓✓✓' }] })).not.toThrow();
    expect(() => new RequestStateCodec({ keys: [{ id: 'k', secret: new Uint8Array(32) }] })).not.toThrow();
    invalid({ keys: [] });
    invalid({ keys: [K1, { ...K2, id: 'k1' }] });
    invalid({ keys: [{ ...K1, id: 'has.dot' }] });
    invalid({ keys: [{ ...K1, id: '' }] });
    invalid({ keys: [{ ...K1, id: 'x'.repeat(65) }] });
    invalid({ keys: [K1], ttlMs: 0 });
    invalid({ keys: [K1], ttlMs: Number.POSITIVE_INFINITY });
    invalid({ keys: [K1], maxRounds: 0 });
    invalid({ keys: [K1], maxRounds: 2.5 });
    invalid({ keys: [K1], maxTokenLength: -1 });
  });

  it('copies a binary secret, so later changes to the caller’s array do not matter', async () => {
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const codec = new RequestStateCodec({ keys: [{ id: 'k', secret }] });
    const twin = new RequestStateCodec({ keys: [{ id: 'k', secret: secret.slice() }] });
    secret.fill(0);
    const binding = await bindingOf();
    await expect(twin.open(await codec.seal(state(binding)), binding)).resolves.toBeDefined();
  });
});

describe('digestArguments', () => {
  it('ignores key order at every level', async () => {
    const a = await digestArguments({ a: 1, b: { x: [1, { p: true, q: null }], y: 'z' } });
    const b = await digestArguments({ b: { y: 'z', x: [1, { q: null, p: true }] }, a: 1 });
    expect(a).toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('changes when any value, key or array order changes', async () => {
    const base = await digestArguments({ a: 1, b: ['x', 'y'] });
    const variants = [{ a: 2, b: ['x', 'y'] }, { a: '1', b: ['x', 'y'] }, { a: 1, b: ['y', 'x'] }, { a: 1, c: ['x', 'y'] }, { a: 1, b: ['x', 'y'], c: null }, { a: 1, b: ['x', 'y', null] }];
    const digests = await Promise.all(variants.map(digestArguments));
    for (const digest of digests) expect(digest).not.toBe(base);
    expect(new Set(digests).size).toBe(variants.length);
  });

  it('digests the canonical JSON text with SHA-256', async () => {
    const expected = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('{"a":[1,"é"],"b":{"c":null}}'))).toString('base64url');
    expect(await digestArguments({ b: { c: null, d: undefined }, a: [1, 'é'] })).toBe(expected);
  });

  it('treats missing arguments like null and leaves out undefined members', async () => {
    expect(await digestArguments(undefined)).toBe(await digestArguments(null));
    expect(await digestArguments({ a: 1, b: undefined })).toBe(await digestArguments({ a: 1 }));
    expect(await digestArguments({})).not.toBe(await digestArguments(undefined));
  });

  it('throws on values JSON cannot carry unambiguously', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(digestArguments(cyclic)).rejects.toThrow(/cyclic/);
    await expect(digestArguments({ n: 1n })).rejects.toThrow(/bigint/);
    // Shared (non-cyclic) references are fine.
    const shared = { v: 1 };
    await expect(digestArguments({ a: shared, b: shared })).resolves.toBe(await digestArguments({ a: { v: 1 }, b: { v: 1 } }));
  });
});
