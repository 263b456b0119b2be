/**
 * "Did you mean" for unknown configuration keys: the known key a typo is closest to, by edit
 * distance, by a shared prefix (`enviroment` → `env`), or by a name other hosts use for it.
 */

/** Names other tools use, or that people reach for, mapped to the key meant. */
const ALIASES: Readonly<Record<string, string>> = {
  environment: 'env',
  arguments: 'args',
  argv: 'args',
  header: 'headers',
  endpoint: 'url',
  servers: 'mcpServers',
};

/** The known key `key` most likely means, or undefined when none is close. */
export function closestKey(key: string, known: Iterable<string>): string | undefined {
  const candidates = [...known];
  const lower = key.toLowerCase();
  const alias = ALIASES[lower];
  if (alias !== undefined && candidates.includes(alias)) return alias;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(1, Math.floor(best.length / 3))) return best;
  // A known key of three letters or more that the typo starts with (`enviroment`, `cwdir`).
  return candidates.filter((candidate) => candidate.length >= 3 && lower.startsWith(candidate.toLowerCase())).sort((a, b) => b.length - a.length)[0];
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
