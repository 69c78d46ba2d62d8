import { describe, expect, it } from 'vitest';
import { blankJsonExtras, parseLocatedJson, ScanInputError } from './scan-json.ts';
import { readClientConfig, readToolsFile } from './scan-sources.ts';

describe('scan JSON reading', () => {
  it.each([
    ['line comment', '{"a": 1 // note\n}', { a: 1 }],
    ['block comment', '{/* x */"a": [1, 2,]}', { a: [1, 2] }],
    ['trailing comma in object', '{"a": {"b": "c",},}', { a: { b: 'c' } }],
    ['slashes inside strings stay', '{"u": "http://x/*y*/", "c": "a,}"}', { u: 'http://x/*y*/', c: 'a,}' }],
    ['escaped quote', '{"q": "say \\"hi\\" // not a comment"}', { q: 'say "hi" // not a comment' }],
  ])('%s', (_name, text, value) => {
    const blanked = blankJsonExtras(text);
    expect(blanked).toHaveLength(text.length);
    expect(JSON.parse(blanked)).toEqual(value);
  });

  it('gives the line and column of members by JSON Pointer', () => {
    const text =
      '{\n  "mcpServers": {\n    // one\n    "a/b": { "command": "x" },\n    "c": {}\n  },\n  "list": [\n    {"n": 1}, 2\n  ]\n}';
    const file = parseLocatedJson(text, 'f.json');
    expect(file.positionOf('/mcpServers')).toEqual({ line: 2, column: 3 });
    expect(file.positionOf('/mcpServers/a~1b')).toEqual({ line: 4, column: 5 });
    expect(file.positionOf('/mcpServers/c')).toEqual({ line: 5, column: 5 });
    expect(file.positionOf('/list/0')).toEqual({ line: 8, column: 5 });
    expect(file.positionOf('/list/1')).toEqual({ line: 8, column: 15 });
    expect(file.positionOf('/nothing')).toBeUndefined();
  });

  it('names the line and column of a syntax error', () => {
    expect(() => parseLocatedJson('{\n  "a": 1\n  "b": 2\n}', 'f.json')).toThrow(
      /f\.json at line 3, column 3: not valid JSON/,
    );
  });
});

describe('client config shapes', () => {
  const read = (value: unknown) =>
    readClientConfig(parseLocatedJson(JSON.stringify(value), 'c.json'), 'c.json');

  it('maps mcpServers entries (Claude Desktop, Cursor, Windsurf, Claude Code) to upstream documents', () => {
    const { shape, servers } = read({
      mcpServers: {
        local: { command: 'npx', args: ['-y', 'pkg'], env: { TOKEN: 'abc' } },
        remote: { url: 'https://x.example/mcp', headers: { Authorization: 'Bearer t' } },
        legacy: { type: 'sse', url: 'https://x.example/sse' },
        windsurf: { serverUrl: 'https://w.example/mcp' },
        off: { command: 'x', disabled: true },
        broken: { args: ['x'] },
        typed: { type: 'http', command: 'y' },
      },
    });
    expect(shape).toBe('mcpServers');
    expect(Object.fromEntries(servers.map((s) => [s.name, s.upstream]))).toEqual({
      local: { document: { transport: 'stdio', command: 'npx', args: ['-y', 'pkg'], env: { TOKEN: 'abc' } } },
      remote: {
        document: { transport: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer t' } },
      },
      legacy: { document: { transport: 'sse', url: 'https://x.example/sse' } },
      windsurf: { document: { transport: 'http', url: 'https://w.example/mcp' } },
      off: { document: { transport: 'stdio', command: 'x' } },
      broken: { problem: 'neither a "command" (stdio) nor a "url" (http, sse)' },
      typed: { problem: 'neither a "command" (stdio) nor a "url" (http, sse)' },
    });
    expect(servers.find((s) => s.name === 'off')?.disabled).toBe(true);
  });

  it('reads VS Code workspace and user-settings forms', () => {
    expect(read({ servers: { a: { type: 'stdio', command: 'x' } }, inputs: [] }).shape).toBe('vscode');
    const settings = read({
      'editor.fontSize': 12,
      mcp: { servers: { b: { type: 'sse', url: 'http://h/sse' } } },
    });
    expect(settings.shape).toBe('vscode-settings');
    expect(settings.servers[0]?.pointer).toBe('/mcp/servers/b');
  });

  it('refuses what is not a client config', () => {
    expect(() => read({ tools: [] })).toThrow(ScanInputError);
    expect(() => read([1])).toThrow(/not an MCP client config/);
    expect(() => read({ mcpServers: [] })).toThrow(/must be an object/);
  });
});

describe('tools file shapes', () => {
  const read = (value: unknown) =>
    readToolsFile(parseLocatedJson(JSON.stringify(value), 't.json'), 't.json', 't');

  it('reads a bare array, a tools/list result and servers by name', () => {
    expect(read([{ name: 'a' }])[0]?.tools.map((t) => t.pointer)).toEqual(['/0']);
    const listed = read({ tools: [{ name: 'a', inputSchema: { type: 'object' } }], instructions: 'hi' });
    expect(listed[0]?.name).toBe('t');
    expect(listed[0]?.instructions).toBe('hi');
    const servers = read({ servers: { s: { tools: [{ name: 'b' }], prompts: [{ name: 'p' }] } } });
    expect(servers[0]?.tools[0]?.pointer).toBe('/servers/s/tools/0');
    expect(servers[0]?.prompts).toEqual([{ name: 'p' }]);
  });

  it('rejects malformed tool entries one by one and the file when its shape is wrong', () => {
    const [server] = read({
      tools: [{ name: 'ok' }, { description: 'no name' }, { name: 'ok' }, { name: 'x', inputSchema: 3 }],
    });
    expect(server?.tools.map((t) => t.tool.name)).toEqual(['ok']);
    expect(server?.rejected.map((r) => r.reason)).toEqual([
      'not an object with a non-empty string "name"',
      'repeats the name of an earlier tool',
      '"inputSchema" is not an object',
    ]);
    expect(() => read({ servers: { s: { tools: {} } } })).toThrow(/"tools" must be an array/);
    expect(() => read({ nothing: true })).toThrow(/not a tools file/);
  });
});
