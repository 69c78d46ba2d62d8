import { describe, expect, it } from 'vitest';
import { gatherResponseTexts, segmentAt, type ResponseKind } from './response-texts.ts';

/** The texts as `path: text` lines, in document order. */
function textsOf(kind: ResponseKind, answer: unknown, limits?: { maxChars: number; maxValues: number }) {
  const gathered = gatherResponseTexts(kind, answer, limits);
  return {
    texts: gathered.segments.map(
      (s) => `${s.path()}: ${gathered.document.slice(s.start, s.start + s.length)}`,
    ),
    unscanned: gathered.unscanned,
    length: gathered.document.length,
  };
}

describe('gatherResponseTexts: what the model reads', () => {
  it.each([
    [
      'a text block',
      'tool-result',
      { content: [{ type: 'text', text: 'hello' }] },
      ['content/0/text: hello'],
    ],
    [
      'image and audio data are not text',
      'tool-result',
      {
        content: [
          { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
          { type: 'audio', data: 'aGVsbG8=', mimeType: 'audio/wav' },
          { type: 'text', text: 'caption' },
        ],
      },
      ['content/2/text: caption'],
    ],
    [
      'an embedded resource text, not its blob',
      'tool-result',
      {
        content: [
          { type: 'resource', resource: { uri: 'a://1', text: 'body' } },
          { type: 'resource', resource: { uri: 'a://2', blob: 'aGVsbG8=' } },
        ],
      },
      ['content/0/resource/text: body'],
    ],
    [
      'a resource link: its name, title and description, which the model reads beside the link',
      'tool-result',
      {
        content: [
          {
            type: 'resource_link',
            uri: 'file:///notes.md',
            name: 'notes',
            title: 'Meeting notes',
            description: 'Read me first',
            mimeType: 'text/markdown',
          },
        ],
      },
      ['content/0/name: notes', 'content/0/title: Meeting notes', 'content/0/description: Read me first'],
    ],
    [
      'structured content: keys before their values, in order',
      'tool-result',
      { content: [], structuredContent: { city: 'Paris', days: [{ note: 'rain' }, 'sun'], n: 3 } },
      [
        'structuredContent/city/(key): city',
        'structuredContent/days/(key): days',
        'structuredContent/n/(key): n',
        'structuredContent/city: Paris',
        'structuredContent/days/0/note/(key): note',
        'structuredContent/days/0/note: rain',
        'structuredContent/days/1: sun',
      ],
    ],
    [
      'a prompt: description and messages (one block or a list)',
      'prompt',
      {
        description: 'About',
        messages: [
          { role: 'user', content: { type: 'text', text: 'first' } },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'second' },
              { type: 'resource', resource: { uri: 'a://x', text: 'third' } },
            ],
          },
        ],
      },
      [
        'description: About',
        'messages/0/content/text: first',
        'messages/1/content/0/text: second',
        'messages/1/content/1/resource/text: third',
      ],
    ],
    [
      'a resource: its text contents, not blobs',
      'resource',
      {
        contents: [
          { uri: 'a://1', text: 'one' },
          { uri: 'a://2', blob: 'eA==' },
          { uri: 'a://3', text: 'two' },
        ],
      },
      ['contents/0/text: one', 'contents/2/text: two'],
    ],
    ['not an object', 'tool-result', 'text', []],
    ['fields of the wrong type', 'prompt', { messages: 'x', description: 7 }, []],
    [
      "a relayed round's elicitation messages, not its schema or a sampling request",
      'input-request',
      {
        resultType: 'input_required',
        inputRequests: {
          who: {
            method: 'elicitation/create',
            params: { message: 'Your name?', requestedSchema: { type: 'object', title: 'hidden' } },
          },
          model: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
          where: { method: 'roots/list' },
          odd: 'x',
        },
        requestState: 'u.state',
      },
      ['inputRequests/who/params/message: Your name?'],
    ],
  ] as const)('%s', (_name, kind, answer, expected) => {
    const { texts, unscanned } = textsOf(kind, answer);
    expect(texts).toEqual(expected);
    expect(unscanned).toBeUndefined();
  });

  it('maps every offset of the document back to its text, and separators to none', () => {
    const gathered = gatherResponseTexts('resource', { contents: [{ text: 'abc' }, { text: 'de' }] });
    expect(gathered.document).toBe('abc\n\nde');
    expect([0, 2, 3, 4, 5, 6].map((at) => segmentAt(gathered, at)?.path())).toEqual([
      'contents/0/text',
      'contents/0/text',
      undefined,
      undefined,
      'contents/1/text',
      'contents/1/text',
    ]);
  });
});

describe('gatherResponseTexts: bounded on hostile answers', () => {
  it('stops at the character cap, mid-text, and says so', () => {
    const answer = {
      content: [
        { type: 'text', text: 'a'.repeat(8) },
        { type: 'text', text: 'b'.repeat(8) },
      ],
    };
    const { texts, unscanned, length } = textsOf('tool-result', answer, { maxChars: 12, maxValues: 100 });
    expect(texts).toEqual(['content/0/text: aaaaaaaa', 'content/1/text: bb']);
    expect(length).toBe(12);
    expect(unscanned).toBe('char-cap');
  });

  it('never cuts a surrogate pair in half at the cap', () => {
    const answer = { contents: [{ text: `ab${'\u{1F600}'}cd` }] };
    const gathered = gatherResponseTexts('resource', answer, { maxChars: 3, maxValues: 100 });
    expect(gathered.document).toBe('ab');
    expect(gathered.unscanned).toBe('char-cap');
  });

  it('stops at the value budget on a list without end', () => {
    const content = Array.from({ length: 5_000 }, () => ({
      type: 'image',
      data: 'x',
      mimeType: 'image/png',
    }));
    const gathered = gatherResponseTexts('tool-result', { content }, { maxChars: 1_000, maxValues: 1_000 });
    expect(gathered.unscanned).toBe('value-cap');
  });

  it('does not open an object wider than the value budget', () => {
    const wide = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, 'v']));
    const gathered = gatherResponseTexts(
      'tool-result',
      { content: [{ type: 'text', text: 'head' }], structuredContent: wide },
      { maxChars: 100_000, maxValues: 1_000 },
    );
    expect(gathered.document).toBe('head');
    expect(gathered.unscanned).toBe('value-cap');
  });

  it('walks structured content nested 50,000 levels deep without recursion', () => {
    let value: unknown = { note: 'bottom' };
    for (let i = 0; i < 50_000; i += 1) value = [value];
    const gathered = gatherResponseTexts('tool-result', { structuredContent: value });
    expect(gathered.unscanned).toBeUndefined();
    expect(gathered.document).toBe('note\n\nbottom');
    // A path is built only when asked for, and each segment is cut to 64 characters.
    expect(gathered.segments[1]?.path()).toBe(`structuredContent/${'0/'.repeat(50_000)}note`);
  });

  it('cuts a long key in a path to 64 characters', () => {
    const key = 'k'.repeat(1_000);
    const gathered = gatherResponseTexts('tool-result', { structuredContent: { [key]: 'v' } });
    expect(gathered.segments[1]?.path()).toBe(`structuredContent/${'k'.repeat(64)}…`);
  });
});
