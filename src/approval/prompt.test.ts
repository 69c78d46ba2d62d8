import { describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL_PROMPT, denialText, renderApprovalPrompt } from './index.ts';

describe('renderApprovalPrompt', () => {
  it.each<[string, string | undefined, string, unknown, string]>([
    [
      'default template',
      undefined,
      'files_write',
      { path: '/a' },
      `Run 'files_write' with arguments {"path":"/a"}?`,
    ],
    ['blank template uses the default', '   ', 't', {}, "Run 't' with arguments {}?"],
    ['custom template', 'Confirm {toolName}: {args}', 'rm', { f: 1 }, 'Confirm rm: {"f":1}'],
    ['replace-all', '{toolName} {toolName} {args} {args}', 'x', [1], 'x x [1] [1]'],
    [
      'no dotted forms',
      'Confirm writing to {args.path}?',
      'w',
      { path: '/a' },
      'Confirm writing to {args.path}?',
    ],
    ['null args', undefined, 't', null, "Run 't' with arguments {}?"],
    ['undefined args', '{args}', 't', undefined, '{}'],
    ['regex characters in values stay literal', '{args}', '$&', { v: '$1 $& \\' }, '{"v":"$1 $& \\\\"}'],
    ['a tool name with $ patterns', "'{toolName}'", '$&$$', {}, "'$&$$'"],
    ['unserializable args', '{args}', 't', { n: 1n }, '(arguments cannot be shown)'],
  ])('%s', (_name, template, toolName, args, expected) => {
    expect(renderApprovalPrompt(template, toolName, args)).toBe(expected);
  });

  it('keeps 400 characters of long argument JSON and adds ...', () => {
    const args = { text: 'x'.repeat(1000) };
    const rendered = renderApprovalPrompt('{args}', 't', args);
    expect(rendered).toBe(`${JSON.stringify(args).slice(0, 400)}...`);
    expect(rendered).toHaveLength(403);
  });

  it('does not cut at exactly 400 characters', () => {
    const args = { t: 'y'.repeat(400 - '{"t":""}'.length) };
    expect(JSON.stringify(args)).toHaveLength(400);
    expect(renderApprovalPrompt('{args}', 't', args)).toBe(JSON.stringify(args));
  });

  it('never leaves half a surrogate pair at the cut', () => {
    const prefix = '{"t":"';
    const args = { t: 'a'.repeat(400 - prefix.length - 1) + '\u{1F600}'.repeat(10) };
    const rendered = renderApprovalPrompt('{args}', 't', args);
    expect(rendered.endsWith('a...')).toBe(true);
    expect(rendered).toHaveLength(402);
  });

  it('has one default', () => {
    expect(DEFAULT_APPROVAL_PROMPT).toBe("Run '{toolName}' with arguments {args}?");
  });
});

describe('denialText', () => {
  it('tells the model the call was denied and why', () => {
    expect(denialText('the secrets folder is off limits')).toBe(
      'Tool execution was denied: the secrets folder is off limits',
    );
  });
});
