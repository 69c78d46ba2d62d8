import { describe, expect, it } from 'vitest';
import { resolveSandbox } from '../resolver.ts';
import { classifyClass, patternMatches, scoreSandboxRisk } from '../risk-level.ts';
import { computeToolSafety } from '../tool-safety.ts';
import type { SandboxBaseline } from '../policy-files.ts';
import type { SandboxOverrides } from '../types.ts';
import type { RiskLevel } from '../deps.ts';
import { policiesOf, profile, referenceBaseline } from './fixtures.ts';

function score(overrides: SandboxOverrides, baseline: SandboxBaseline = referenceBaseline()) {
  const result = resolveSandbox({ policies: policiesOf(baseline), overrides });
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('; '));
  return scoreSandboxRisk(result.value);
}

describe('Risk Level (R-SPEC-8)', () => {
  it.each<[string, SandboxOverrides, RiskLevel]>([
    // The format's canonical examples (bundled in catalog/tools/).
    ['base64: baseline only', {}, 'L0'],
    ['getUpbitTicker: one-host allowlist', { networkMode: 'allowlist', hostsAllow: ['api.upbit.com'] }, 'L3'],
    ['extractPageContent: strict', { networkMode: 'strict' }, 'L3'],
    ['readTextFile: read', { fileRead: true }, 'L3'],
    ['writeTextFile: write', { fileWrite: true }, 'L4'],
    // Network.
    ['allowlist with no hosts raises nothing', { networkMode: 'allowlist', hostsAllow: [] }, 'L0'],
    ['allowlist containing "*"', { networkMode: 'allowlist', hostsAllow: ['api.x.com', '*'] }, 'L4'],
    ['open', { networkMode: 'open' }, 'L4'],
    ['OPEN scores like open (one normalization for scoring and enforcement)', { networkMode: 'OPEN' }, 'L4'],
    ['Strict scores like strict', { networkMode: 'Strict' }, 'L3'],
    ['explicit blocked', { networkMode: 'blocked' }, 'L0'],
    // Files and destructive.
    ['read + write', { fileRead: true, fileWrite: true }, 'L4'],
    ['destructive scores L5 whatever the file flags', { destructive: true }, 'L5'],
    ['explicit false flags', { fileRead: false, fileWrite: false, destructive: false }, 'L0'],
    // Secrets.
    ['secretsInCode: plaintext secrets in tool code', { secretsInCode: true }, 'L4'],
    ['secretsInCode false is the default', { secretsInCode: false }, 'L0'],
    [
      'secretsInCode raises a one-host allowlist tool',
      { networkMode: 'allowlist', hostsAllow: ['api.upbit.com'], secretsInCode: true },
      'L4',
    ],
    // Removed denies.
    ['one non-critical deny removed', { removeDenyClasses: ['java.util.ServiceLoader'] }, 'L3'],
    [
      'two non-critical denies removed',
      { removeDenyClasses: ['java.util.ServiceLoader', 'java.lang.ThreadGroup'] },
      'L3',
    ],
    [
      'three denies removed',
      { removeDenyClasses: ['java.util.ServiceLoader', 'java.lang.ThreadGroup', 'java.util.spi.*'] },
      'L4',
    ],
    ['a removed critical deny (System)', { removeDenyClasses: ['java.lang.System'] }, 'L5'],
    [
      'a removed critical deny (ProcessBuilder, prefix of Process)',
      { removeDenyClasses: ['java.lang.ProcessBuilder'] },
      'L5',
    ],
    ['removing a deny that is not in the baseline', { removeDenyClasses: ['com.acme.Nothing'] }, 'L0'],
    [
      'removal wins: critical class in addDeny and removeDeny → un-denied → L5',
      { addDenyClasses: ['java.lang.Runtime'], removeDenyClasses: ['java.lang.Runtime'] },
      'L5',
    ],
    // Added allows.
    ['an ordinary class allowed', { addAllowClasses: ['com.acme.Money'] }, 'L3'],
    ['a network class allowed', { addAllowClasses: ['java.net.URL'] }, 'L4'],
    [
      'URLEncoder counts as network (prefix java.net.URL)',
      { addAllowClasses: ['java.net.URLEncoder'] },
      'L4',
    ],
    ['a file-read class allowed', { addAllowClasses: ['java.nio.file.Files'] }, 'L4'],
    ['a file-write class allowed', { addAllowClasses: ['java.io.FileWriter'] }, 'L5'],
    [
      'reflection (with its deny removed)',
      { addAllowClasses: ['java.lang.Class'], removeDenyClasses: ['java.lang.Class'] },
      'L4',
    ],
    ['removing allow entries never raises', { removeAllowClasses: ['java.util.*', 'java.text.*'] }, 'L0'],
    // Hardening: patterns score as what they grant.
    ['hardening: java.net.* grants sockets', { addAllowClasses: ['java.net.*'] }, 'L4'],
    ['hardening: java.io.* grants FileWriter', { addAllowClasses: ['java.io.*'] }, 'L5'],
    ['hardening: java.nio.file.* grants Files', { addAllowClasses: ['java.nio.file.*'] }, 'L4'],
    ['hardening: java.nio.* reaches FileChannel', { addAllowClasses: ['java.nio.*'] }, 'L5'],
    [
      'hardening: java.lang.ClassLoader un-denied and allowed is critical',
      { addAllowClasses: ['java.lang.ClassLoader'], removeDenyClasses: ['java.lang.ClassLoader'] },
      'L5',
    ],
    [
      'hardening: un-denying ClassLoader alone exposes it through java.lang.*',
      { removeDenyClasses: ['java.lang.ClassLoader'] },
      'L5',
    ],
    [
      'hardening: un-denying java.lang.reflect.* exposes reflection',
      { removeDenyClasses: ['java.lang.reflect.*'] },
      'L4',
    ],
    ['a harmless wildcard stays L3', { addAllowClasses: ['com.acme.*'] }, 'L3'],
    [
      'java.* keeps critical classes denied but reaches file-write classes',
      { addAllowClasses: ['java.*'] },
      'L5',
    ],
  ])('%s → %s', (_label, overrides, level) => {
    const risk = score(overrides);
    expect(risk.level).toBe(level);
    expect(risk.reasons.length > 0).toBe(level !== 'L0');
  });

  it('scores the RESOLVED posture, baseline and profile included', () => {
    expect(score({}, referenceBaseline({ fileRead: true })).level).toBe('L3');
    expect(score({ fileRead: false }, referenceBaseline({ fileRead: true })).level).toBe('L0');
    const viaProfile = resolveSandbox({
      policies: policiesOf(referenceBaseline(), [profile('net', { networkMode: 'open' })]),
      overrides: {},
      profile: 'net',
    });
    expect(viaProfile.ok && scoreSandboxRisk(viaProfile.value).level).toBe('L4');
  });

  it('gives a reason naming the trigger', () => {
    const risk = score({
      networkMode: 'allowlist',
      hostsAllow: ['api.upbit.com'],
      removeDenyClasses: ['java.lang.System'],
    });
    expect(risk.level).toBe('L5');
    expect(risk.reasons.some((r) => r.includes('api.upbit.com'))).toBe(true);
    expect(risk.reasons.some((r) => r.includes('java.lang.System'))).toBe(true);
  });

  it('is never stored in toolSafety (R-SPEC-9)', () => {
    const result = resolveSandbox({ policies: policiesOf(), overrides: { destructive: true } });
    if (!result.ok) throw new Error('unexpected');
    const text = JSON.stringify(computeToolSafety({ code: '', category: null }, result.value));
    expect(text).not.toMatch(/"L[0-5]"/);
    expect(text).not.toMatch(/risk/i);
  });
});

describe('class predicates', () => {
  it.each([
    ['java.lang.System', 'critical'],
    ['java.lang.ProcessHandle', 'critical'],
    ['java.lang.RuntimePermission', 'critical'],
    ['java.lang.ClassLoader', 'critical'],
    ['java.io.RandomAccessFile', 'file-write'],
    ['java.lang.Class', 'reflection'],
    ['java.lang.reflect.Method', 'reflection'],
    ['java.net.http.HttpClient', 'network'],
    ['javax.net.ssl.SSLContext', 'network'],
    ['org.jsoup.Jsoup', 'network'],
    ['java.io.File', 'file-read'],
    ['java.io.Files', 'other'],
    ['java.util.HashMap', 'other'],
  ])('%s is %s', (cls, grant) => {
    expect(classifyClass(cls)).toBe(grant);
  });

  it.each([
    ['java.lang.*', 'java.lang.reflect.Method', true],
    ['java.lang.*', 'java.langx.Foo', false],
    ['java.lang.System', 'java.lang.System', true],
    ['java.lang.System', 'java.lang.SystemX', false],
  ])('%s matches %s: %s', (pattern, cls, expected) => {
    expect(patternMatches(pattern, cls)).toBe(expected);
  });
});

describe('Risk Level of plaintext secrets', () => {
  it('says why secretsInCode raises the level', () => {
    expect(score({ secretsInCode: true }).reasons).toEqual([
      'L4: secrets reach tool code as plaintext (secretsInCode); masking cannot catch an encoded copy',
    ]);
  });
});
