/**
 * Time to match long URIs against URI templates: `npx tsx bench/uri-template.ts [sizes]`.
 *
 * For each template and size (default 100 KB, 1 MB and 10 MB), a URI of that many characters is
 * matched once to warm up, then timed over 5 runs; prints the median wall-clock and the median
 * CPU time of the process in ms (CPU time holds up better than wall-clock on a busy machine).
 * The inputs are benign (they match) and hostile (long runs that a backtracking matcher would
 * split every way), including non-ASCII text. Every result is checked, so a broken matcher cannot
 * produce a fast number.
 */
import { UriTemplate } from '../runtime/features/uri-template/uri-template.js';

const RUNS = 5;

interface Case {
  readonly template: string;
  readonly uri: (size: number) => string;
  readonly matches: boolean;
}

const cases: Case[] = [
  { template: 'file:///{+path}', uri: (n) => `file:///${'a/'.repeat(n / 2)}`, matches: true },
  { template: 'file:///{+path}{?rev}', uri: (n) => `file:///${'é/'.repeat(n / 2)}?rev=1`, matches: true },
  { template: 'mem://items/{id}', uri: (n) => `mem://items/${'x'.repeat(n)}`, matches: true },
  { template: 'mem://items/{id}', uri: (n) => `mem://items/${'%41'.repeat(n / 3)}`, matches: true },
  { template: '{+a}{+b}x{+c}y{d}', uri: (n) => `${'a'.repeat(n)}!`, matches: false },
  { template: '{+a},{+b},{+c},{+d}!', uri: (n) => ','.repeat(n), matches: false },
  { template: '{x,y,z}{?a,b,c}', uri: (n) => `${'1,'.repeat(n / 2)}?a=#`, matches: false },
  { template: '{/p*}{/q*}{/r*}z', uri: (n) => '/a'.repeat(n / 2), matches: false },
  { template: '{+a},{+b},{+c},{+d}!', uri: (n) => `${','.repeat(n)}!`, matches: true },
  { template: '{x,y,z}{?a,b,c}', uri: (n) => `${'1,'.repeat(n / 2)}?a=1&c=2`, matches: true },
];

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

const sizes = (process.argv[2] ?? '100000,1000000,10000000').split(',').map(Number);
console.log(`| template | input | ${sizes.map((n) => `${n.toLocaleString('en')} chars: wall / CPU ms`).join(' | ')} |`);
console.log(`|---|---|${sizes.map(() => '---').join('|')}|`);
for (const { template: text, uri, matches } of cases) {
  const template = new UriTemplate(text);
  const cells: string[] = [];
  for (const size of sizes) {
    const input = uri(size);
    if ((template.match(input) !== null) !== matches) throw new Error(`${text}: wrong result for ${size} chars`);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const startedCpu = process.cpuUsage();
      const started = performance.now();
      template.match(input);
      wall.push(performance.now() - started);
      const used = process.cpuUsage(startedCpu);
      cpu.push((used.user + used.system) / 1_000);
    }
    cells.push(`${median(wall).toFixed(1)} / ${median(cpu).toFixed(1)}`);
  }
  console.log(`| \`${text}\` | ${uri(12)}… | ${cells.join(' | ')} |`);
}
