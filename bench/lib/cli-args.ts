/** The number after `name` on the command line (at least 1), or `fallback` when `name` is absent. */
export function numberArgument(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Math.max(1, Number(process.argv[index + 1]));
}
