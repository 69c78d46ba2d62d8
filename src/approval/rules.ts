/**
 * The approval rule engine (docs/rules/approval.md#r-approval-1-rule-evaluation): rules compiled once from
 * config, evaluated per call. First
 * match wins; no rules or no match allows; a rate-limit rule under its limit lets evaluation continue; any
 * exception while evaluating denies (fail closed).
 * Longer than most files on purpose: compiling a rule and evaluating it are two halves of one small language,
 * kept together so a matcher and its compiled form cannot drift apart.
 */
import picomatch from 'picomatch';
import { parseDuration } from '../config/index.ts';
import type { ApprovalChannel, ApprovalRuleConfig } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { isRiskAtLeast, isRiskLevel } from '../risk/index.ts';
import type { RiskLevel } from '../risk/index.ts';
import {
  anyStringMatches,
  argumentText,
  compileGlobTest,
  compileRegexTest,
  matchesText,
  type TextMatchOptions,
  type TextTest,
} from './arg-match.ts';
import {
  canonicalJson,
  escapeJsonPointerToken,
  parseJsonPointer,
  resolveJsonPointer,
  sha256Hex,
  isRecord,
} from '../shared/index.ts';
import { createSlidingWindowLimiter } from './rate-limiter.ts';
import type { SlidingWindowLimiter } from './rate-limiter.ts';

/** The facts about one call that rules match on. */
export interface ApprovalCall {
  /** The exposed tool name. */
  alias: string;
  origin: 'upstream' | 'local';
  /** The upstream id (upstream tools only). */
  upstream?: string;
  /** The upstream tool name, or the local tool's name. */
  tool: string;
  /** The effective risk level of the tool. */
  risk: RiskLevel;
  /** The validated call arguments. */
  args: unknown;
  /** The authenticated caller; absent for anonymous access. */
  principal?: string;
  /** The caller's groups and scopes (`match.group` and `match.scope` match when any one does). */
  groups?: readonly string[];
  scopes?: readonly string[];
  /**
   * True only for the verified retry of a call that was already counted (the modern era's second round, whose
   * sealed state opened for this call, once): rate-limit rules then neither count it again nor refuse it.
   */
  counted?: boolean;
}

/** The rules' verdict for one call (a closed union). */
export type RuleDecision =
  | { kind: 'allow'; ruleId?: string }
  | { kind: 'deny'; ruleId: string; reason: string }
  | { kind: 'ask'; ruleId: string; prompt?: string }
  | { kind: 'rate-limited'; ruleId: string; retryAfterMs: number };

/** Compiled approval rules. */
export interface ApprovalRules {
  /** Evaluates the rules for one call at `now` (ms epoch); never throws. */
  evaluate(call: ApprovalCall, now: number): RuleDecision;
  /** A digest of the rule set; sealed approvals are bound to it, so a policy change voids pending approvals. */
  readonly version: string;
  /** How many rules there are. */
  readonly size: number;
  /** The top-level argument names a rule's `args` pointers look at (shown first in its approval prompt). */
  watchedArgs(ruleId: string | undefined): readonly string[];
  /** The approval channel a rule names (`channel:`), if any; the global `approval.channel` applies otherwise. */
  channelOf(ruleId: string | undefined): ApprovalChannel | undefined;
}

/** The principal that rules see for anonymous calls (so `principal: "*"` also matches them). */
export const ANONYMOUS_PRINCIPAL = 'anonymous';

/** The reason given when evaluation itself fails. */
export const RULES_FAILED_REASON = 'approval rules failed';

type StringTest = (value: string) => boolean;

interface CompiledRule {
  id: string;
  watched: readonly string[];
  /** deny, ask and rate-limit rules; they also match the normalized form of path-like values. */
  restrictive: boolean;
  tests: ((call: ApprovalCall) => boolean)[];
  outcome:
    | { kind: 'allow' }
    | { kind: 'deny'; reason: string }
    | { kind: 'ask'; prompt?: string }
    | { kind: 'rate-limit'; limiter: SlidingWindowLimiter };
}

const RULE_KEYS = new Set([
  'id',
  'match',
  'decision',
  'reason',
  'prompt',
  'rateLimit',
  'caseSensitive',
  'channel',
]);
const CHANNELS: readonly string[] = ['elicitation', 'console', 'both'];
const MATCH_KEYS = new Set([
  'alias',
  'upstream',
  'tool',
  'origin',
  'riskAtLeast',
  'principal',
  'group',
  'scope',
  'args',
  'anyArg',
]);
const GLOB_OPTIONS = { dot: true } as const;

/**
 * Compiles the rules of `approval.rules` once. Throws CONFIG_INVALID naming the rule id and the field for a bad
 * glob, regex, pointer, risk level, duration or shape.
 */
export function compileApprovalRules(rules: readonly ApprovalRuleConfig[] | undefined): ApprovalRules {
  const list = rules ?? [];
  if (!Array.isArray(list)) throw configError(undefined, '/approval/rules', 'rules must be a list');
  const seen = new Set<string>();
  const compiled = list.map((rule, index) => {
    const out = compileRule(rule as unknown, index);
    if (seen.has(out.id)) throw configError(out.id, `/approval/rules/${index}/id`, 'the id is used twice');
    seen.add(out.id);
    return out;
  });
  const version = sha256Hex(canonicalJson(list, 'stringify'));

  const evaluate = (call: ApprovalCall, now: number): RuleDecision => {
    let current = compiled[0]?.id ?? '(rules)';
    try {
      if (!Number.isFinite(now)) throw new TypeError('now must be a finite number');
      for (const rule of compiled) {
        current = rule.id;
        if (!rule.tests.every((test) => test(call))) continue;
        switch (rule.outcome.kind) {
          case 'allow':
            return { kind: 'allow', ruleId: rule.id };
          case 'deny':
            return { kind: 'deny', ruleId: rule.id, reason: rule.outcome.reason };
          case 'ask':
            return rule.outcome.prompt === undefined
              ? { kind: 'ask', ruleId: rule.id }
              : { kind: 'ask', ruleId: rule.id, prompt: rule.outcome.prompt };
          case 'rate-limit': {
            if (call.counted) continue;
            const key = JSON.stringify([call.principal ?? ANONYMOUS_PRINCIPAL, call.alias]);
            const verdict = rule.outcome.limiter.take(key, now);
            if (!verdict.allowed)
              return { kind: 'rate-limited', ruleId: rule.id, retryAfterMs: verdict.retryAfterMs };
            continue;
          }
        }
      }
      return { kind: 'allow' };
    } catch {
      // Fail closed: a rule that cannot be evaluated must not let the call through.
      return { kind: 'deny', ruleId: current, reason: RULES_FAILED_REASON };
    }
  };

  const watched = new Map(compiled.map((rule) => [rule.id, rule.watched]));
  const watchedArgs = (ruleId: string | undefined) =>
    ruleId === undefined ? [] : (watched.get(ruleId) ?? []);
  const channels = new Map<string, ApprovalChannel>();
  list.forEach((rule, index) => {
    const channel = (rule as { channel?: unknown }).channel;
    if (channel === undefined) return;
    if (typeof channel !== 'string' || !CHANNELS.includes(channel))
      throw configError(
        rule.id,
        `/approval/rules/${index}/channel`,
        'channel must be elicitation, console or both',
      );
    channels.set(rule.id, channel as ApprovalChannel);
  });
  const channelOf = (ruleId: string | undefined) => (ruleId === undefined ? undefined : channels.get(ruleId));
  return { evaluate, version, size: compiled.length, watchedArgs, channelOf };
}

function compileRule(rule: unknown, index: number): CompiledRule {
  const base = `/approval/rules/${index}`;
  if (!isRecord(rule)) throw configError(undefined, base, 'a rule must be a mapping');
  const id = rule['id'];
  if (typeof id !== 'string' || id.trim() === '')
    throw configError(undefined, `${base}/id`, 'id must be a non-empty string');
  for (const key of Object.keys(rule)) {
    if (!RULE_KEYS.has(key)) throw configError(id, `${base}/${key}`, `unknown field ${key}`);
  }
  const decision = rule['decision'];
  const rateLimit = rule['rateLimit'];
  if ((decision === undefined) === (rateLimit === undefined)) {
    throw configError(id, base, 'a rule needs exactly one of decision and rateLimit');
  }
  for (const field of ['reason', 'prompt'] as const) {
    if (rule[field] !== undefined && typeof rule[field] !== 'string') {
      throw configError(id, `${base}/${field}`, `${field} must be a string`);
    }
  }
  const restrictive = decision !== 'allow';
  const caseSensitive = rule['caseSensitive'];
  if (caseSensitive !== undefined && typeof caseSensitive !== 'boolean') {
    throw configError(id, `${base}/caseSensitive`, 'caseSensitive must be true or false');
  }
  // Security choice: restrictive rules fold case unless told not to, because the upstream's filesystem may
  // (macOS, Windows) and a gateway cannot tell; an allow rule that folded would let more through.
  const text: TextMatchOptions = {
    restrictive,
    foldCase: caseSensitive === undefined ? restrictive : !caseSensitive,
  };
  const tests = compileMatch(rule['match'], id, `${base}/match`, text);

  let outcome: CompiledRule['outcome'];
  if (rateLimit !== undefined) {
    outcome = { kind: 'rate-limit', limiter: compileRateLimit(rateLimit, id, `${base}/rateLimit`) };
  } else if (decision === 'allow') {
    outcome = { kind: 'allow' };
  } else if (decision === 'deny') {
    const reason = rule['reason'];
    outcome = {
      kind: 'deny',
      reason: typeof reason === 'string' && reason.trim() !== '' ? reason : `denied by rule ${id}`,
    };
  } else if (decision === 'ask') {
    const prompt = rule['prompt'];
    outcome = typeof prompt === 'string' && prompt.trim() !== '' ? { kind: 'ask', prompt } : { kind: 'ask' };
  } else {
    throw configError(id, `${base}/decision`, 'decision must be allow, deny or ask');
  }
  return { id, watched: watchedNames(rule['match']), restrictive, tests, outcome };
}

function compileMatch(
  match: unknown,
  id: string,
  base: string,
  text: TextMatchOptions,
): ((call: ApprovalCall) => boolean)[] {
  if (!isRecord(match)) throw configError(id, base, 'match must be a mapping (use {} to match every call)');
  const tests: ((call: ApprovalCall) => boolean)[] = [];
  for (const [key, value] of Object.entries(match)) {
    const where = `${base}/${key}`;
    if (!MATCH_KEYS.has(key)) throw configError(id, where, `unknown match field ${key}`);
    switch (key) {
      case 'alias': {
        const test = compileGlob(value, id, where, key);
        tests.push((call) => test(call.alias));
        break;
      }
      case 'upstream': {
        const test = compileGlob(value, id, where, key);
        tests.push(
          (call) => call.origin === 'upstream' && call.upstream !== undefined && test(call.upstream),
        );
        break;
      }
      case 'tool': {
        const test = compileGlob(value, id, where, key);
        tests.push((call) => test(call.tool));
        break;
      }
      case 'principal': {
        const test = compileGlob(value, id, where, key);
        tests.push((call) => test(call.principal ?? ANONYMOUS_PRINCIPAL));
        break;
      }
      case 'group': {
        const test = compileGlob(value, id, where, key);
        tests.push((call) => (call.groups ?? []).some(test));
        break;
      }
      case 'scope': {
        const test = compileGlob(value, id, where, key);
        tests.push((call) => (call.scopes ?? []).some(test));
        break;
      }
      case 'origin':
        if (value !== 'upstream' && value !== 'local')
          throw configError(id, where, 'origin must be upstream or local');
        tests.push((call) => call.origin === value);
        break;
      case 'riskAtLeast': {
        if (!isRiskLevel(value)) throw configError(id, where, 'riskAtLeast must be one of L0..L5');
        tests.push((call) => isRiskAtLeast(call.risk, value));
        break;
      }
      case 'args':
        tests.push(...compileArgs(value, id, where, text));
        break;
      case 'anyArg': {
        const test = compileTextSpec(value, id, where, 'anyArg', text);
        tests.push((call) => anyStringMatches(call.args, test, text.restrictive));
        break;
      }
    }
  }
  return tests;
}

function compileArgs(
  args: unknown,
  id: string,
  base: string,
  text: TextMatchOptions,
): ((call: ApprovalCall) => boolean)[] {
  if (!isRecord(args)) throw configError(id, base, 'args must map JSON pointers to a glob or { regex }');
  return Object.entries(args).map(([pointer, spec]) => {
    const where = `${base}/${escapeJsonPointerToken(pointer)}`;
    const tokens = parseJsonPointer(pointer);
    if (!tokens) {
      throw configError(
        id,
        where,
        `args key ${JSON.stringify(pointer)} is not a JSON pointer (like "/path" or "/items/0")`,
      );
    }
    const test = compileTextSpec(spec, id, where, `args ${pointer}`, text);
    return (call: ApprovalCall) => {
      const value = resolveJsonPointer(call.args, tokens);
      if (value === undefined) return false;
      // Security choice: deny, ask and rate-limit rules also try the normalized forms of the value (see
      // arg-match.ts), so `/srv/public/../secrets/x` cannot slip past a rule on `/srv/secrets/**`. Allow rules
      // match the value as given and gain nothing from normalization.
      return matchesText(test, argumentText(value), text.restrictive);
    };
  });
}

/** A glob string or `{ regex }`, compiled; CONFIG_INVALID naming the rule and field otherwise. */
function compileTextSpec(
  spec: unknown,
  id: string,
  where: string,
  field: string,
  options: TextMatchOptions,
): TextTest {
  if (typeof spec === 'string' && spec !== '') {
    try {
      return compileGlobTest(spec, options);
    } catch (error) {
      throw configError(id, where, `${field} is not a valid glob: ${(error as Error).message}`);
    }
  }
  if (isRecord(spec) && Object.keys(spec).length === 1 && typeof spec['regex'] === 'string') {
    try {
      return compileRegexTest(spec['regex'], options);
    } catch (error) {
      throw configError(id, `${where}/regex`, `${field} regex is invalid: ${(error as Error).message}`);
    }
  }
  throw configError(id, where, `${field} must be a glob string or { regex: "..." }`);
}

function compileGlob(glob: unknown, id: string, where: string, field: string): StringTest {
  if (typeof glob !== 'string' || glob === '')
    throw configError(id, where, `${field} must be a non-empty glob`);
  try {
    return picomatch(glob, GLOB_OPTIONS);
  } catch (error) {
    throw configError(id, where, `${field} is not a valid glob: ${(error as Error).message}`);
  }
}

function compileRateLimit(rateLimit: unknown, id: string, where: string): SlidingWindowLimiter {
  if (!isRecord(rateLimit)) throw configError(id, where, 'rateLimit must be { calls, per }');
  const calls = rateLimit['calls'];
  const per = rateLimit['per'];
  const extra = Object.keys(rateLimit).find((key) => key !== 'calls' && key !== 'per');
  if (extra !== undefined) throw configError(id, `${where}/${extra}`, `unknown field ${extra}`);
  if (typeof calls !== 'number' || !Number.isInteger(calls) || calls < 1) {
    throw configError(id, `${where}/calls`, 'rateLimit.calls must be a whole number of at least 1');
  }
  let windowMs: number;
  try {
    if (typeof per !== 'string') throw new Error('not a string');
    windowMs = parseDuration(per);
  } catch {
    throw configError(id, `${where}/per`, 'rateLimit.per must be a duration such as 30s, 1m or 1h');
  }
  if (windowMs <= 0) throw configError(id, `${where}/per`, 'rateLimit.per must be longer than zero');
  return createSlidingWindowLimiter(calls, windowMs);
}

function watchedNames(match: unknown): string[] {
  const args = isRecord(match) ? match['args'] : undefined;
  if (!isRecord(args)) return [];
  return Object.keys(args).flatMap((pointer) => parseJsonPointer(pointer)?.slice(0, 1) ?? []);
}

function configError(id: string | undefined, pointer: string, message: string): PortcullisError {
  const who = id === undefined ? 'approval rule' : `approval rule ${JSON.stringify(id)}`;
  return new PortcullisError('CONFIG_INVALID', `${who}: ${message} (at ${pointer})`, { pointer });
}
