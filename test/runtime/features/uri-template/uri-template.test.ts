import { describe, expect, expectTypeOf, it } from 'vitest';
import { UriTemplate, type UriTemplateVariableName, type UriVariables } from '../../../../runtime/index.js';

// Values used by the expansion tables, chosen to exercise encoding and the undefined rules.
const values = {
  word: 'tea',
  phrase: 'green tea!',
  path: '/shelf/green tea',
  ref: 'a%20b',
  x: '7',
  y: '42',
  empty: '',
  unset: undefined,
  accent: 'café',
  emoji: '☕🍵',
  long: 'darjeeling',
  list: ['oolong', 'sencha', 'matcha'],
  none: [],
  dict: { origin: 'japan', grade: 'first flush' },
  nodict: {},
};

const expand = (template: string): string => new UriTemplate(template).expand(values);

describe('expansion', () => {
  it.each([
    ['{word}', 'tea'],
    ['{phrase}', 'green%20tea%21'],
    ['shop/{word}/cup', 'shop/tea/cup'],
    ['{accent}', 'caf%C3%A9'],
    ['{emoji}', '%E2%98%95%F0%9F%8D%B5'],
    ['{unset}', ''],
    ['a{empty}b', 'ab'],
  ])('level 1: %s → %s', (template, expected) => expect(expand(template)).toBe(expected));

  it.each([
    ['{+path}', '/shelf/green%20tea'],
    ['{+path}/cup', '/shelf/green%20tea/cup'],
    ['{+phrase}', 'green%20tea!'],
    ['{+ref}', 'a%20b'],
    ['{ref}', 'a%2520b'],
    ['{#word}', '#tea'],
    ['{#path}', '#/shelf/green%20tea'],
    ['x{#unset}', 'x'],
  ])('level 2: %s → %s', (template, expected) => expect(expand(template)).toBe(expected));

  it.each([
    ['{x,y}', '7,42'],
    ['{x,unset,y}', '7,42'],
    ['{+x,path}', '7,/shelf/green%20tea'],
    ['{#x,path}', '#7,/shelf/green%20tea'],
    ['shop{.word}', 'shop.tea'],
    ['shop{.x,y}', 'shop.7.42'],
    ['{/word,x}', '/tea/7'],
    ['{/word,unset,x}', '/tea/7'],
    ['{;x,y}', ';x=7;y=42'],
    ['{;x,empty}', ';x=7;empty'],
    ['{?x,y}', '?x=7&y=42'],
    ['{?x,empty,unset}', '?x=7&empty='],
    ['?fixed=1{&x}', '?fixed=1&x=7'],
    ['{?unset}', ''],
  ])('level 3: %s → %s', (template, expected) => expect(expand(template)).toBe(expected));

  it.each([
    ['{long:4}', 'darj'],
    ['{long:30}', 'darjeeling'],
    ['{emoji:1}', '%E2%98%95'],
    ['{+path:6}', '/shelf'],
    ['{?long:3}', '?long=dar'],
    ['{list}', 'oolong,sencha,matcha'],
    ['{list*}', 'oolong,sencha,matcha'],
    ['{/list}', '/oolong,sencha,matcha'],
    ['{/list*}', '/oolong/sencha/matcha'],
    ['{.list*}', '.oolong.sencha.matcha'],
    ['{;list*}', ';list=oolong;list=sencha;list=matcha'],
    ['{?list}', '?list=oolong,sencha,matcha'],
    ['{?list*}', '?list=oolong&list=sencha&list=matcha'],
    ['{&list*}', '&list=oolong&list=sencha&list=matcha'],
    ['{dict}', 'origin,japan,grade,first%20flush'],
    ['{dict*}', 'origin=japan,grade=first%20flush'],
    ['{?dict*}', '?origin=japan&grade=first%20flush'],
    ['{;dict}', ';dict=origin,japan,grade,first%20flush'],
    ['{#dict*}', '#origin=japan,grade=first%20flush'],
    ['{?none,nodict}', ''],
    ['{/none*}', ''],
  ])('level 4: %s → %s', (template, expected) => expect(expand(template)).toBe(expected));

  it('writes numbers and booleans as text', () => {
    expect(new UriTemplate('{?n,on}').expand({ n: 3, on: true })).toBe('?n=3&on=true');
  });

  it.each(['{', '}', 'a}b', '{}', '{=x}', '{a:0}', '{a:10000}', '{a b}', '{a{b}}', '{.}'])('rejects the malformed template %s', (template) => {
    expect(() => new UriTemplate(template)).toThrow(SyntaxError);
  });

  it('lists variable names and tells templates from URIs', () => {
    expect(new UriTemplate('/{a}/{+b}{?c,a}').variableNames).toEqual(['a', 'b', 'c']);
    expect(UriTemplate.isTemplate('file:///{path}')).toBe(true);
    expect(UriTemplate.isTemplate('file:///plain')).toBe(false);
  });
});

describe('matching', () => {
  it.each<[string, string, Record<string, string | string[]> | null]>([
    ['mem://items/{id}', 'mem://items/7', { id: '7' }],
    ['mem://items/{id}', 'mem://items/caf%C3%A9', { id: 'café' }],
    ['mem://items/{id}', 'mem://items/a/b', null],
    ['mem://items/{id}', 'mem://other/7', null],
    ['file:///{+path}', 'file:///src/index.ts', { path: 'src/index.ts' }],
    ['file:///{+path}{?rev}', 'file:///docs/a%20b.md?rev=3', { path: 'docs/a b.md', rev: '3' }],
    ['file:///{+path}{?rev}', 'file:///docs/readme', { path: 'docs/readme' }],
    ['data/{+name}.json', 'data/a.b/c.json', { name: 'a.b/c' }],
    ['/users/{id}/posts{?page,limit}', '/users/ada/posts?page=2&limit=10', { id: 'ada', page: '2', limit: '10' }],
    ['/users/{id}/posts{?page,limit}', '/users/ada/posts?limit=10', { id: 'ada', limit: '10' }],
    ['/users/{id}/posts{?page,limit}', '/users/ada/posts', { id: 'ada' }],
    ['/users/{id}/posts{?page,limit}', '/users/ada/posts?limit=10&page=2', null],
    ['{x,y}', '7,42', { x: '7', y: '42' }],
    ['{list}', 'a,b,c', { list: 'a,b,c' }],
    ['shop{.ext}', 'shop.tea', { ext: 'tea' }],
    ['repo{/segments*}', 'repo/a/b/c', { segments: ['a', 'b', 'c'] }],
    ['search{?tag*}', 'search?tag=red&tag=dry', { tag: ['red', 'dry'] }],
    ['map{;lat,long}', 'map;lat=59.9;long=10.7', { lat: '59.9', long: '10.7' }],
    ['map{;lat,flag}', 'map;lat=1;flag', { lat: '1', flag: '' }],
    ['page{#section}', 'page#intro', { section: 'intro' }],
    ['{+base}/{name}', 'a/b/c', { base: 'a/b', name: 'c' }],
    ['{+a}/{b}/c', 'p/q/c/d/c', { a: 'p/q/c', b: 'd' }],
  ])('%s against %s', (template, uri, expected) => {
    expect(new UriTemplate(template).match(uri)).toEqual(expected);
  });

  it('round-trips what it expands', () => {
    const cases: Array<[string, Record<string, string | string[]>]> = [
      ['res://{kind}/{id}{?v,lang}', { kind: 'doc', id: 'a b&c', v: '2', lang: 'nb' }],
      ['file:///{+path}', { path: 'dir with space/ü.txt' }],
      ['q{?tags*}', { tags: ['x y', 'z'] }],
      ['{/parts*}{?q}', { parts: ['α', 'β'], q: 'γ' }],
    ];
    for (const [text, input] of cases) {
      const template = new UriTemplate(text);
      expect(template.match(template.expand(input)), text).toEqual(input);
    }
  });

  it('types the variables from the template text', () => {
    type Vars = UriVariables<'users/{id}/{+rest}{?page,limit}{/extra*}'>;
    expectTypeOf<Vars>().toEqualTypeOf<{ readonly id: string; readonly rest: string } & { readonly page?: string; readonly limit?: string } & { readonly extra?: string[] }>();
    expectTypeOf<UriTemplateVariableName<'a{x}{?y:3}'>>().toEqualTypeOf<'x' | 'y'>();
    expectTypeOf<UriVariables<string>>().toEqualTypeOf<{ readonly [name: string]: string | string[] | undefined }>();
  });
});

describe('hostile URIs', () => {
  const LENGTH = 100_000;
  // Each template/input pair would make a backtracking matcher try a quadratic or exponential
  // number of splits.
  const hostile: Array<[string, string]> = [
    ['{+a}{+b}x{+c}y{d}', 'a'.repeat(LENGTH) + '!'],
    ['{+a},{+b},{+c},{+d}!', ','.repeat(LENGTH)],
    ['mem://items/{id}', `mem://items/${'a'.repeat(LENGTH)}/`],
    ['{x,y,z}{?a,b,c}', `${'1,'.repeat(LENGTH / 2)}?a=#`],
    ['{/p*}{/q*}{/r*}z', '/a'.repeat(LENGTH / 2)],
    ['{?list*}{&more*}', `?list=${'=&list'.repeat(LENGTH / 6)}`],
  ];

  // The work per character is bounded in match.test.ts, by counting steps rather than timing.
  it.each(hostile)('%s against a 100 KB input is refused', (text, uri) => {
    expect(new UriTemplate(text).match(uri)).toBeNull();
  });

  it('still matches long benign URIs', () => {
    const id = 'x'.repeat(LENGTH);
    expect(new UriTemplate('mem://items/{id}{?v}').match(`mem://items/${id}?v=1`)).toEqual({ id, v: '1' });
  });
});
