/**
 * The sandbox Risk Level of a resolved posture (docs/rules/tool-specs.md#r-spec-8-sandbox-risk-level),
 * with a human-readable reason for every raise. Scored from the ONE merge enforcement uses, never stored
 * in toolSafety. Hardening beyond the reference: a class or package pattern scores as what it actually grants
 * (`java.net.*` grants sockets, `java.io.*` grants FileWriter), and `java.lang.ClassLoader` counts as critical
 * because a class loader can reach any class past the allow/deny gate.
 */
import { maxRisk, riskOrdinal, type RiskLevel } from './deps.ts';
import type { ResolvedSandbox } from './resolver.ts';

/** The level and why. */
export interface SandboxRisk {
  level: RiskLevel;
  /** One line per raise, in evaluation order; empty at L0. */
  reasons: string[];
}

/** What a class (or class pattern) lets tool code do, worst first. */
export type ClassGrant = 'critical' | 'file-write' | 'reflection' | 'network' | 'file-read' | 'other';

const CRITICAL_PREFIXES = ['java.lang.System', 'java.lang.Runtime', 'java.lang.Process'];
const FILE_WRITE_PREFIXES = [
  'java.io.FileWriter',
  'java.io.FileOutputStream',
  'java.io.RandomAccessFile',
  'java.nio.channels.FileChannel',
];
const NETWORK_PREFIXES = [
  'java.net.http',
  'java.net.Socket',
  'java.net.URL',
  'java.net.URLConnection',
  'java.net.HttpURLConnection',
  'java.nio.channels.Socket',
  'javax.net.ssl',
  'org.jsoup',
];
const FILE_READ_PREFIXES = [
  'java.io.FileReader',
  'java.io.FileInputStream',
  'java.nio.file.Files',
  'java.nio.file.Path',
  'java.nio.file.Paths',
];

/** Representative classes per grant, used to see what a package pattern reaches (hardening). */
const SENSITIVE_CLASSES: ReadonlyArray<readonly [string, ClassGrant]> = [
  ['java.lang.System', 'critical'],
  ['java.lang.Runtime', 'critical'],
  ['java.lang.Process', 'critical'],
  ['java.lang.ProcessBuilder', 'critical'],
  ['java.lang.ClassLoader', 'critical'],
  ['java.io.FileWriter', 'file-write'],
  ['java.io.FileOutputStream', 'file-write'],
  ['java.io.RandomAccessFile', 'file-write'],
  ['java.nio.channels.FileChannel', 'file-write'],
  ['java.lang.Class', 'reflection'],
  ['java.lang.reflect.Method', 'reflection'],
  ['java.lang.invoke.MethodHandles', 'reflection'],
  ['java.net.Socket', 'network'],
  ['java.net.URL', 'network'],
  ['java.net.HttpURLConnection', 'network'],
  ['java.net.http.HttpClient', 'network'],
  ['java.nio.channels.SocketChannel', 'network'],
  ['javax.net.ssl.SSLSocket', 'network'],
  ['org.jsoup.Jsoup', 'network'],
  ['java.io.File', 'file-read'],
  ['java.io.FileReader', 'file-read'],
  ['java.io.FileInputStream', 'file-read'],
  ['java.nio.file.Files', 'file-read'],
  ['java.nio.file.Path', 'file-read'],
];

const GRANT_LEVEL: Record<ClassGrant, RiskLevel> = {
  critical: 'L5',
  'file-write': 'L5',
  reflection: 'L4',
  network: 'L4',
  'file-read': 'L4',
  other: 'L3',
};

const starts = (cls: string, prefixes: readonly string[]): boolean => prefixes.some((p) => cls.startsWith(p));

/** The reference's string-prefix classification of one class or pattern (R-SPEC-8), plus ClassLoader. */
export function classifyClass(cls: string): ClassGrant {
  if (starts(cls, CRITICAL_PREFIXES) || cls === 'java.lang.ClassLoader') return 'critical';
  if (starts(cls, FILE_WRITE_PREFIXES)) return 'file-write';
  if (
    cls.startsWith('java.lang.reflect') ||
    cls.startsWith('java.lang.invoke') ||
    cls === 'java.lang.Class'
  ) {
    return 'reflection';
  }
  if (starts(cls, NETWORK_PREFIXES)) return 'network';
  if (cls === 'java.io.File' || starts(cls, FILE_READ_PREFIXES)) return 'file-read';
  return 'other';
}

/** True when the class pattern matches `cls` the way the reference looks classes up (`pkg.*` covers subpackages). */
export function patternMatches(pattern: string, cls: string): boolean {
  if (pattern.endsWith('.*')) return cls.startsWith(pattern.slice(0, -1));
  return pattern === cls;
}

function reachable(cls: string, allow: readonly string[], deny: readonly string[]): boolean {
  return !deny.some((p) => patternMatches(p, cls)) && allow.some((p) => patternMatches(p, cls));
}

const worse = (a: ClassGrant, b: ClassGrant): ClassGrant =>
  riskOrdinal(GRANT_LEVEL[a]) >= riskOrdinal(GRANT_LEVEL[b]) ? a : b;

/** Scores a resolved posture; a pure function of the resolution (R-SPEC-8: resolved, not declared, values). */
export function scoreSandboxRisk(resolved: ResolvedSandbox): SandboxRisk {
  let level: RiskLevel = 'L0';
  const reasons: string[] = [];
  const raise = (to: RiskLevel, reason: string): void => {
    level = maxRisk(level, to);
    reasons.push(`${to}: ${reason}`);
  };
  const { policy } = resolved;

  switch (policy.networkMode) {
    case 'allowlist':
      if (policy.hostsAllow.includes('*')) raise('L4', 'network allowlist contains "*" (any host)');
      else if (policy.hostsAllow.length > 0) {
        raise(
          'L3',
          `network allowlist of ${policy.hostsAllow.length} host(s): ${policy.hostsAllow.join(', ')}`,
        );
      }
      break;
    case 'strict':
      raise('L3', 'network strict: any public host, behind the SSRF guard');
      break;
    case 'open':
      raise('L4', 'network open: any host including private networks, no IP checks');
      break;
    case 'blocked':
      break;
  }
  if (policy.fileWrite) raise('L4', 'file write access');
  else if (policy.fileRead) raise('L3', 'file read access');
  if (policy.destructive) raise('L5', 'destructive file operations allowed (move, delete, deleteDir)');
  // Handles keep secrets out of tool code; plaintext can leave in any encoding, which no masking can catch.
  if (policy.secretsInCode === true)
    raise('L4', 'secrets reach tool code as plaintext (secretsInCode); masking cannot catch an encoded copy');

  // The critical check looks at the REMOVED denies: a kept deny grants nothing (R-SPEC-8).
  const removedDenies = resolved.baselineDenyClasses.filter((cls) => !resolved.denyClasses.includes(cls));
  const criticalRemoved = removedDenies.filter((cls) => classifyClass(cls) === 'critical');
  if (criticalRemoved.length > 0) raise('L5', `critical class un-denied: ${criticalRemoved.join(', ')}`);
  else if (removedDenies.length >= 3)
    raise('L4', `${removedDenies.length} baseline denies removed: ${removedDenies.join(', ')}`);
  else if (removedDenies.length >= 1) raise('L3', `baseline deny removed: ${removedDenies.join(', ')}`);

  const addedAllows = resolved.allowClasses.filter((cls) => !resolved.baselineAllowClasses.includes(cls));
  if (addedAllows.length > 0) {
    const grant = addedAllows.map(classifyClass).reduce(worse);
    const label = grant === 'other' ? 'class allowed beyond the baseline' : `${grant} class allowed`;
    raise(GRANT_LEVEL[grant], `${label}: ${addedAllows.join(', ')}`);
  }

  // Hardening: score what the final lists actually reach compared with the baseline lists, so a package
  // wildcard or a ClassLoader counts as the classes it opens up.
  const newlyReachable = SENSITIVE_CLASSES.filter(
    ([cls]) =>
      reachable(cls, resolved.allowClasses, resolved.denyClasses) &&
      !reachable(cls, resolved.baselineAllowClasses, resolved.baselineDenyClasses),
  );
  if (newlyReachable.length > 0) {
    const grant = newlyReachable.map(([, g]) => g).reduce(worse);
    const classes = newlyReachable.filter(([, g]) => g === grant).map(([cls]) => cls);
    const alreadySaid = classes.every((cls) => reasons.some((r) => r.includes(cls)));
    if (!alreadySaid || riskOrdinal(GRANT_LEVEL[grant]) > riskOrdinal(level)) {
      raise(GRANT_LEVEL[grant], `the class lists now reach ${grant} classes: ${classes.join(', ')}`);
    }
  }
  return { level, reasons };
}
