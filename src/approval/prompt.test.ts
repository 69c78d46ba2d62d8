import { describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL_PROMPT, denialText } from './prompt.ts';
import { renderApprovalPrompt } from './index.ts';

describe('renderApprovalPrompt', () => {
  it.each<[string, string | undefined, string, unknown, string]>([
    [
      'default template',
      undefined,
      'files_write',
      { path: '/a' },
      `Run 'files_write' with arguments {path: "/a"}?`,
    ],
    ['blank template uses the default', '   ', 't', {}, "Run 't' with arguments {}?"],
    ['custom template', 'Confirm {toolName}: {args}', 'rm', { f: 1 }, 'Confirm rm: {f: 1}'],
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
    ['regex characters in values stay literal', '{args}', '$&', { v: '$1 $& \\' }, '{v: "$1 $& \\\\"}'],
    ['a tool name with $ patterns', "'{toolName}'", '$&$$', {}, "'$&$$'"],
    ['an unserializable value', '{args}', 't', { n: 1n }, '{n: (cannot be shown)}'],
    ['odd key names are quoted', '{args}', 't', { 'a b': 1, 'x"y': 2 }, '{"a b": 1, "x\\"y": 2}'],
    ['newlines in values stay escaped', '{args}', 't', { note: 'a\nb' }, '{note: "a\\nb"}'],
  ])('%s', (_name, template, toolName, args, expected) => {
    expect(renderApprovalPrompt(template, toolName, args)).toBe(expected);
  });

  it('has one default', () => {
    expect(DEFAULT_APPROVAL_PROMPT).toBe("Run '{toolName}' with arguments {args}?");
  });
});

describe('the person sees the whole call', () => {
  const schema = {
    type: 'object',
    properties: {
      content: { type: 'string' },
      path: { type: 'string' },
      mode: { type: 'string' },
      site: { type: 'string', format: 'uri' },
    },
  };

  it('shows a path after a 10 KB first argument, and the long value shortened in the middle', () => {
    const content = `BEGIN${'x'.repeat(10_000)}END`;
    const text = renderApprovalPrompt(
      '{args}',
      'w',
      { content, path: '/srv/secrets/key' },
      { inputSchema: schema },
    );
    expect(text).toContain('path: "/srv/secrets/key"');
    expect(text.indexOf('path:')).toBeLessThan(text.indexOf('content:'));
    expect(text).toContain('BEGIN');
    expect(text).toContain('END"');
    expect(text).toContain(`(${JSON.stringify(content).length} characters)`);
    expect(text.length).toBeLessThan(600);
  });

  it.each<[string, Record<string, unknown>, readonly string[], string[]]>([
    ['path-like names', { mode: 'w', content: 'c', targetFile: '/x' }, [], ['targetFile', 'mode', 'content']],
    ['URL and command names', { a: 1, url: 'http://x', cmd: 'ls' }, [], ['url', 'cmd', 'a']],
    ['recipients', { body: 'hi', to: 'a@b.example', cc_list: 'c@d.example' }, [], ['to', 'cc_list', 'body']],
    ['schema formats', { mode: 'x', site: 'http://x' }, [], ['site', 'mode']],
    ["the rule's pointers", { mode: 'x', content: 'y' }, ['content'], ['content', 'mode']],
  ])('puts sensitive arguments first: %s', (_name, args, sensitive, order) => {
    const text = renderApprovalPrompt('{args}', 't', args, { inputSchema: schema, sensitive });
    const positions = order.map((key) => text.search(new RegExp(`[{ ]${key}[ :]`)));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('marks arguments the schema does not declare', () => {
    const text = renderApprovalPrompt('{args}', 't', { path: '/a', sneaky: 'b' }, { inputSchema: schema });
    expect(text).toContain('sneaky (not in the tool\'s schema): "b"');
    expect(text).toContain('path: "/a"');
  });

  it('never drops a key it can show and counts the ones past the bound, never hiding a sensitive one', () => {
    const args: Record<string, unknown> = {};
    for (let i = 0; i < 100; i += 1) args[`opt${i}`] = i;
    args['outputPath'] = '/srv/secrets/out';
    const text = renderApprovalPrompt('{args}', 't', args);
    expect(text).toContain('outputPath: "/srv/secrets/out"');
    expect(text).toMatch(/and 71 more arguments/);
    const sensitive: Record<string, unknown> = {};
    for (let i = 0; i < 50; i += 1) sensitive[`path${i}`] = `/p/${i}`;
    const all = renderApprovalPrompt('{args}', 't', sensitive);
    for (let i = 0; i < 50; i += 1) expect(all).toContain(`path${i}: "/p/${i}"`);
  });

  it('shortens a long key name with its length', () => {
    const key = 'k'.repeat(500);
    const text = renderApprovalPrompt('{args}', 't', { [key]: 1 });
    expect(text).toContain('(500 characters)');
    expect(text.length).toBeLessThan(200);
  });

  it('never leaves half a surrogate pair at a cut', () => {
    const text = renderApprovalPrompt('{args}', 't', { t: '\u{1F600}'.repeat(500) });
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(text).not.toMatch(/(^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe('denialText', () => {
  it('tells the model the call was denied and why', () => {
    expect(denialText('the secrets folder is off limits')).toBe(
      'Tool execution was denied: the secrets folder is off limits',
    );
  });
});
