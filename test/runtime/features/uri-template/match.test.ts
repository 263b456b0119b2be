import { describe, expect, it } from 'vitest';
import { compileMatcher } from '../../../../runtime/features/uri-template/match.js';
import { compileProgram } from '../../../../runtime/features/uri-template/match-program.js';
import { parseTemplate } from '../../../../runtime/features/uri-template/parse.js';
import { UriTemplate } from '../../../../runtime/features/uri-template/uri-template.js';

/** The two-pass matcher (default), and the Pike VM alone, over the same template. */
function engines(template: string) {
  const parts = parseTemplate(template);
  return { fast: compileMatcher(parts), vm: compileMatcher(parts, { maxStates: 0 }), capped: compileMatcher(parts, { maxStates: 3 }) };
}

/** A small deterministic generator (mulberry32), so that every run tries the same cases. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

describe('matching: non-ASCII characters', () => {
  it.each<[string, string, Record<string, string | string[]> | null]>([
    // Literal non-ASCII characters in the template, raw or as surrogate pairs.
    ['notes://café/{id}', 'notes://café/7', { id: '7' }],
    ['notes://café/{id}', 'notes://cafe/7', null],
    ['tea/🍵/{id}', 'tea/🍵/x', { id: 'x' }],
    ['tea/🍵/{id}', 'tea/\uD83C/x', null],
    ['{a}é{b}', 'xéy', { a: 'x', b: 'y' }],
    // `+` takes as little as lets the rest match, and a plain value accepts non-ASCII.
    ['{+a}é{b}', 'xéyéz', { a: 'x', b: 'yéz' }],
    // Raw non-ASCII characters in values, which matching accepts as they come.
    ['file:///{+path}', 'file:///Ünïcødé/☕🍵.txt', { path: 'Ünïcødé/☕🍵.txt' }],
    ['mem://{id}', 'mem://日本語', { id: '日本語' }],
    ['mem://{id}', 'mem://\uD83C', { id: '\uD83C' }],
    ['mem://{id}{?q}', 'mem://α?q=β', { id: 'α', q: 'β' }],
    // Percent-encoded UTF-8 decodes; a broken escape is kept as written.
    ['mem://{id}', 'mem://%E2%98%95', { id: '☕' }],
    ['mem://{id}', 'mem://%E2%98', { id: '%E2%98' }],
  ])('%s against %s', (template, uri, expected) => {
    const { fast, vm } = engines(template);
    expect(fast(uri)).toEqual(expected);
    expect(vm(uri)).toEqual(expected);
    expect(new UriTemplate(template).match(uri)).toEqual(expected);
  });
});

describe('matching: the two-pass matcher agrees with the Pike VM', () => {
  const literals = ['a', 'b', '/', ',', '.', '=', '&', '?', '#', ';', 'é', '🍵', 'x/', ''];
  const operators = ['', '+', '#', '.', '/', ';', '?', '&'];
  const names = ['a', 'b', 'c'];

  function randomTemplate(next: () => number): string {
    let text = '';
    const pieces = 1 + Math.floor(next() * 4);
    for (let i = 0; i < pieces; i++) {
      text += pick(next, literals);
      const count = 1 + Math.floor(next() * 3);
      const vars = Array.from({ length: count }, () => pick(next, names) + (next() < 0.3 ? '*' : ''));
      text += `{${pick(next, operators)}${vars.join(',')}}`;
    }
    return text + pick(next, literals);
  }

  function randomUri(next: () => number, template: UriTemplate): string {
    const value = (): string | string[] => {
      const word = () => Array.from({ length: Math.floor(next() * 4) }, () => pick(next, ['a', 'b', '/', ',', '.', '=', ' ', 'é', '🍵'])).join('');
      return next() < 0.3 ? [word(), word()] : word();
    };
    const values: Record<string, string | string[] | undefined> = {};
    for (const name of names) values[name] = next() < 0.2 ? undefined : value();
    let uri = template.expand(values);
    // Some URIs are expansions, the rest are mutated so that many do not match.
    for (let edits = Math.floor(next() * 3); edits > 0 && uri.length > 0; edits--) {
      const at = Math.floor(next() * uri.length);
      uri = next() < 0.5 ? uri.slice(0, at) + uri.slice(at + 1) : uri.slice(0, at) + pick(next, literals) + uri.slice(at);
    }
    return uri;
  }

  it('on 1,000 random templates and URIs (fixed seed)', () => {
    const next = random(20_251_202);
    let matched = 0;
    for (let i = 0; i < 1_000; i++) {
      const text = randomTemplate(next);
      const template = new UriTemplate(text);
      const uri = randomUri(next, template);
      const { fast, vm, capped } = engines(text);
      const expected = vm(uri);
      expect(fast(uri), `${text} against ${uri}`).toEqual(expected);
      expect(capped(uri), `${text} against ${uri} (state cap reached)`).toEqual(expected);
      if (expected !== null) matched += 1;
    }
    // Both outcomes are well represented, so agreement is not agreement on null alone.
    expect(matched).toBeGreaterThan(200);
    expect(matched).toBeLessThan(800);
  });
});

describe('matching: work grows linearly with the URI', () => {
  const hostile: Array<[string, (n: number) => string]> = [
    ['{+a}{+b}x{+c}y{d}', (n) => 'a'.repeat(n) + '!'],
    ['{+a},{+b},{+c},{+d}!', (n) => ','.repeat(n)],
    ['mem://items/{id}', (n) => `mem://items/${'a'.repeat(n)}/`],
    ['{x,y,z}{?a,b,c}', (n) => `${'1,'.repeat(n / 2)}?a=#`],
    ['{/p*}{/q*}{/r*}z', (n) => '/a'.repeat(n / 2)],
    ['{?list*}{&more*}', (n) => `?list=${'=&list'.repeat(n / 6)}`],
    ['file:///{+path}', (n) => `file:///${'a/'.repeat(n / 2)}`],
    ['file:///{+path}{?rev}', (n) => `file:///${'é/'.repeat(n / 2)}?rev=1`],
    ['{+a}/{b}/c', (n) => `${'p/'.repeat(n / 2)}c/d/c`],
  ];

  it.each(hostile)('%s: a few steps per character, and the same answer, in both matchers', (template, make) => {
    const { fast, vm } = engines(template);
    const size = compileProgram(parseTemplate(template)).op.length;
    for (const n of [6_000, 60_000]) {
      const uri = make(n);
      const fastSteps = { steps: 0 };
      const vmSteps = { steps: 0 };
      expect(fast(uri, fastSteps)).toEqual(vm(uri, vmSteps));
      // The two-pass matcher visits each character at most twice plus a constant per state and
      // run; the Pike VM at most every instruction once per character.
      expect(fastSteps.steps).toBeLessThanOrEqual(2 * uri.length + 64 * size);
      expect(vmSteps.steps).toBeLessThanOrEqual((uri.length + 1) * (size + 1) * 2);
    }
  });

  it('walks a run of value characters in one forward step', () => {
    const { fast } = engines('file:///{+path}');
    const counter = { steps: 0 };
    const uri = `file:///${'a/'.repeat(50_000)}`;
    expect(fast(uri, counter)).toEqual({ path: uri.slice('file:///'.length) });
    // One step per character backwards; the forward thread takes the run at once.
    expect(counter.steps).toBeLessThan(uri.length + 100);
  });
});
