/**
 * The shape checks of what a 2025-era upstream sends: each malformed shape is named by its first problem, each
 * well-formed one passes, and the cost stays flat however deep the parts the gateway does not read are nested.
 */
import { describe, expect, it } from 'vitest';
import {
  LIST_CHECKS,
  NOTIFICATION_CHECKS,
  readListPage,
  RESULT_CHECKS,
  UPSTREAM_REQUEST_CHECKS,
} from './shapes.ts';

const text = { type: 'text', text: 'hi' };

describe('RESULT_CHECKS', () => {
  it.each<[string, unknown, string | undefined]>([
    [
      'initialize',
      { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      undefined,
    ],
    ['initialize', null, 'the result is not an object'],
    [
      'initialize',
      { protocolVersion: 5, capabilities: {}, serverInfo: {} },
      'protocolVersion must be a string',
    ],
    [
      'initialize',
      { protocolVersion: 'v', capabilities: [], serverInfo: {} },
      'capabilities must be an object',
    ],
    [
      'initialize',
      { protocolVersion: 'v', capabilities: {}, serverInfo: { name: 's' } },
      'serverInfo.version must be a string',
    ],
    [
      'initialize',
      { protocolVersion: 'v', capabilities: {}, serverInfo: { name: 's', version: '1' }, instructions: 1 },
      'instructions must be a string',
    ],
    ['tools/call', { content: [text] }, undefined],
    ['tools/call', {}, undefined],
    ['tools/call', { content: 'x' }, 'content must be an array'],
    ['tools/call', { content: [], isError: 'yes' }, 'isError must be a boolean'],
    ['tools/call', { content: [], structuredContent: [1] }, 'structuredContent must be an object'],
    ['tools/call', { content: [text, { type: 'text' }] }, 'content[1]: text must be a string'],
    [
      'tools/call',
      { content: [{ type: 'toString' }] },
      expect.stringMatching(/^content\[0\]: type must be one of/),
    ],
    ['tools/call', { content: [{ type: 'image', data: 'x' }] }, 'content[0]: mimeType must be a string'],
    [
      'tools/call',
      { content: [{ type: 'resource', resource: { uri: 'u' } }] },
      'content[0]: text or blob must be a string',
    ],
    ['tools/call', { content: [{ type: 'resource_link', uri: 'u', name: 'n' }] }, undefined],
    ['prompts/get', { messages: [{ role: 'user', content: text }] }, undefined],
    ['prompts/get', { messages: {} }, 'messages must be an array'],
    [
      'prompts/get',
      { messages: [{ role: 'system', content: text }] },
      'messages[0]: role must be user or assistant',
    ],
    [
      'prompts/get',
      { messages: [{ role: 'user', content: { type: 'text' } }] },
      'messages[0]: content: text must be a string',
    ],
    ['resources/read', { contents: [{ uri: 'u', blob: 'AA==' }] }, undefined],
    ['resources/read', { contents: [{ text: 'x' }] }, 'contents[0]: uri must be a string'],
    ['completion/complete', { completion: { values: ['a'] } }, undefined],
    ['completion/complete', { completion: { values: [1] } }, 'completion.values[0]: must be a string'],
    [
      'completion/complete',
      { completion: { values: Array.from({ length: 101 }, () => 'a') } },
      'completion.values must hold at most 100 suggestions',
    ],
    ['ping', {}, undefined],
    ['ping', 'pong', 'the result is not an object'],
  ])('%s %j → %s', (method, value, problem) => {
    expect(RESULT_CHECKS[method]?.(value)).toEqual(problem);
  });

  it('does not read structured content, however deep it is nested', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i += 1) deep = { a: deep };
    expect(RESULT_CHECKS['tools/call']?.({ content: [text], structuredContent: deep })).toBeUndefined();
  });
});

describe('list pages', () => {
  it.each<[unknown, string, ReturnType<typeof readListPage>]>([
    [{ prompts: [] }, 'prompts', { items: [], nextCursor: undefined }],
    [{ prompts: [], nextCursor: '' }, 'prompts', { items: [], nextCursor: undefined }],
    [{ prompts: [], nextCursor: 'c' }, 'prompts', { items: [], nextCursor: 'c' }],
    [{ prompts: [], nextCursor: 3 }, 'prompts', 'nextCursor must be a string'],
    [{ prompts: 'x' }, 'prompts', 'prompts must be an array'],
    [[], 'prompts', 'the result is not an object'],
  ])('%j → %j', (result, key, read) => {
    expect(readListPage(result, key)).toEqual(read);
  });

  it.each<[keyof typeof LIST_CHECKS, unknown, string | undefined]>([
    ['prompts/list', { name: 'p', arguments: [{ name: 'a' }] }, undefined],
    ['prompts/list', { name: 'p', arguments: {} }, 'arguments must be an array'],
    ['prompts/list', { name: 'p', arguments: [{}] }, 'arguments[0]: name must be a string'],
    ['prompts/list', { title: 'p' }, 'name must be a string'],
    ['resources/list', { uri: 'u', name: 'n' }, undefined],
    ['resources/list', { name: 'n' }, 'uri must be a string'],
    ['resources/templates/list', { uriTemplate: 'u/{x}', name: 'n' }, undefined],
    ['resources/templates/list', { uri: 'u', name: 'n' }, 'uriTemplate must be a string'],
    ['resources/templates/list', 7, 'must be an object'],
  ])('%s entry %j → %s', (method, entry, problem) => {
    expect(LIST_CHECKS[method].entry(entry)).toEqual(problem);
  });
});

describe('UPSTREAM_REQUEST_CHECKS', () => {
  const form = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
  it.each<[string, unknown, string | undefined]>([
    ['elicitation/create', { message: 'm', requestedSchema: form }, undefined],
    ['elicitation/create', { message: 'm', mode: 'form', requestedSchema: form }, undefined],
    ['elicitation/create', { requestedSchema: form }, 'message must be a string'],
    ['elicitation/create', { message: 'm', mode: 'url', url: 'https://x' }, 'elicitationId must be a string'],
    ['elicitation/create', { message: 'm', mode: 'tty' }, 'mode must be "form" or "url"'],
    ['elicitation/create', { message: 'm' }, 'requestedSchema must be an object'],
    [
      'elicitation/create',
      { message: 'm', requestedSchema: { type: 'array' } },
      'requestedSchema.type must be "object"',
    ],
    [
      'elicitation/create',
      { message: 'm', requestedSchema: { type: 'object', properties: { x: { type: 'object' } } } },
      expect.stringMatching(/^requestedSchema\.properties\.x must be a primitive field/),
    ],
    [
      'elicitation/create',
      { message: 'm', requestedSchema: { ...form, required: [1] } },
      'requestedSchema.required must be an array of strings',
    ],
    ['sampling/createMessage', { messages: [{ role: 'user', content: text }], maxTokens: 10 }, undefined],
    [
      'sampling/createMessage',
      { messages: [{ role: 'user', content: [text, text] }], maxTokens: 10 },
      undefined,
    ],
    ['sampling/createMessage', { messages: [], maxTokens: '10' }, 'maxTokens must be a number'],
    [
      'sampling/createMessage',
      { messages: [{ role: 'user', content: 'hi' }], maxTokens: 1 },
      'messages[0]: content must be content blocks',
    ],
  ])('%s %j → %s', (method, params, problem) => {
    expect(UPSTREAM_REQUEST_CHECKS[method]?.(params)).toEqual(problem);
  });

  it('names at most 64 characters of an upstream field name', () => {
    const name = 'x'.repeat(10_000);
    const problem = UPSTREAM_REQUEST_CHECKS['elicitation/create']?.({
      message: 'm',
      requestedSchema: { type: 'object', properties: { [name]: 5 } },
    });
    expect(problem).toContain(`properties.${'x'.repeat(64)} must`);
    expect(problem).not.toContain('x'.repeat(65));
  });
});

describe('NOTIFICATION_CHECKS', () => {
  it.each<[string, unknown, string | undefined]>([
    ['notifications/message', { level: 'info', data: { any: 'thing' } }, undefined],
    ['notifications/message', { level: 'warning', logger: 'x', data: 1 }, undefined],
    [
      'notifications/message',
      { level: 'evil', data: 1 },
      expect.stringMatching(/^level must be one of debug, info/),
    ],
    ['notifications/message', { level: 'info', logger: 5, data: 1 }, 'logger must be a string'],
    ['notifications/resources/updated', { uri: 'file:///a' }, undefined],
    ['notifications/resources/updated', { uri: ['file:///a'] }, 'uri must be a string'],
  ])('%s %j → %s', (method, params, problem) => {
    expect(NOTIFICATION_CHECKS[method]?.(params)).toEqual(problem);
  });
});
