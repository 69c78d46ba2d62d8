import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { ApprovalRuleConfig } from '../config/index.ts';
import { compileApprovalRules, decideHitl } from './index.ts';
import type { ApprovalCall } from './rules.ts';

const example = parse(
  readFileSync(resolve(import.meta.dirname, '..', '..', 'policies', 'approval.example.yaml'), 'utf8'),
) as { approval: { autoApproveThreshold: string; elicitationTimeout: string; rules: ApprovalRuleConfig[] } };

const call = (over: Partial<ApprovalCall>): ApprovalCall => ({
  alias: 'files_read',
  origin: 'upstream',
  upstream: 'files',
  tool: 'read_file',
  risk: 'L1',
  args: { path: '/home/u/notes.txt' },
  principal: 'alice',
  ...over,
});

describe('policies/approval.example.yaml', () => {
  const rules = compileApprovalRules(example.approval.rules);

  it('compiles, with the documented settings', () => {
    expect(rules.size).toBe(3);
    expect(example.approval.autoApproveThreshold).toBe('L3');
    expect(example.approval.elicitationTimeout).toBe('5m');
  });

  it.each<[string, Partial<ApprovalCall>, string]>([
    ['a read outside secrets', {}, 'allow'],
    ['a read in a secrets folder', { args: { path: '/srv/app/secrets/db.env' } }, 'deny'],
    ['a sneaky path into secrets', { args: { path: '/srv/app/public/../secrets/db.env' } }, 'deny'],
    ['a big write', { alias: 'files_write', tool: 'write_file', risk: 'L4' }, 'ask'],
    ['a small write', { alias: 'files_write', tool: 'write_file', risk: 'L2' }, 'allow'],
  ])('%s → %s', (_name, over, kind) => {
    expect(rules.evaluate(call(over), 0).kind).toBe(kind);
  });

  it('limits each caller to 60 calls a minute per tool', () => {
    const engine = compileApprovalRules(example.approval.rules);
    for (let i = 0; i < 60; i += 1) expect(engine.evaluate(call({}), i).kind).toBe('allow');
    const limited = engine.evaluate(call({}), 60);
    expect(limited).toEqual({ kind: 'rate-limited', ruleId: 'slow-down', retryAfterMs: 59_940 });
    expect(decideHitl({ mode: 'DISABLED', effectiveRisk: 'L1', ruleDecision: limited })).toMatchObject({
      kind: 'deny',
      code: 'RATE_LIMITED',
    });
  });
});
