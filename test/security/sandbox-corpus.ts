/**
 * The sandbox escape corpus: what a hostile tool author writes into a Safe Tool Spec's code, and the verdict
 * Portcullis promises for it (docs/security.md, "The sandbox"). Every entry runs as its own published spec
 * through the gateway (sandbox-attacks.test.ts). The file-system attacks need fixtures and live in
 * fs-attacks.test.ts; secret exfiltration is covered where secrets become handles.
 */

/** What the client must see. */
export type Verdict =
  // `reason` lists every acceptable reason when more than one limit can fire first (a memory bomb on a busy
  // machine may spend its CPU budget in the garbage collector before the heap cap is reached).
  { error: string; reason?: string | readonly string[]; message?: RegExp } | { value: string | RegExp };

/** One attack. */
export interface Attack {
  category:
    | 'constructor chain'
    | 'prototype pollution'
    | 'proxy'
    | 'deep recursion'
    | 'memory bomb'
    | 'cpu bomb'
    | 'redos'
    | 'forgery';
  name: string;
  code: string;
  params?: string[];
  args?: Record<string, string>;
  /** The sandbox profile (default `pure-compute`: 2 s of CPU); memory bombs run with the baseline's 5 s. */
  profile?: string | null;
  verdict: Verdict;
}

const NO_PROCESS = /process is not defined|require is not defined/;

/** The corpus. Names are tool names: letters and digits only. */
export const ATTACKS: readonly Attack[] = [
  // Constructor chains: every Function reachable from tool code is the isolate's own, with no Node inside.
  {
    category: 'constructor chain',
    name: 'ctorThis',
    code: "return this.constructor.constructor('return process')();",
    verdict: { error: 'SANDBOX_ERROR', message: NO_PROCESS },
  },
  {
    category: 'constructor chain',
    name: 'ctorAsync',
    code: 'return await (async () => {}).constructor(\'return require("node:fs")\')();',
    verdict: { error: 'SANDBOX_ERROR', message: NO_PROCESS },
  },
  {
    category: 'constructor chain',
    name: 'ctorGenerator',
    code: "const G = (function* () {}).constructor; return G('yield process.env')().next().value;",
    verdict: { error: 'SANDBOX_ERROR', message: NO_PROCESS },
  },
  {
    category: 'constructor chain',
    name: 'ctorHelpers',
    code: `return [console.log, URL, URLSearchParams, atob, btoa, TextEncoder, crypto.getRandomValues,
      crypto.randomUUID, safety.parser.csv, safety.parser.yaml]
      .map((f) => f.constructor('return [typeof process, typeof require, typeof Buffer].join()')())
      .join(';');`,
    verdict: { value: Array(10).fill('undefined,undefined,undefined').join(';') },
  },
  {
    category: 'constructor chain',
    name: 'ctorStackFrames',
    code: `Error.prepareStackTrace = (_, frames) => frames;
      const frames = new Error('x').stack;
      const seen = [];
      for (const frame of frames) {
        const fn = frame.getFunction();
        const self = frame.getThis();
        if (fn) seen.push(await fn.constructor('return typeof process')());
        if (self && self.constructor) seen.push(self.constructor.constructor('return typeof process')());
      }
      return seen.filter((kind) => kind !== 'undefined').length + '/' + seen.length;`,
    verdict: { value: /^0\/[1-9]/ },
  },
  {
    category: 'constructor chain',
    name: 'dynamicImport',
    code: "const fs = await import('node:fs'); return fs.readFileSync('/etc/passwd', 'utf8');",
    verdict: { error: 'SANDBOX_ERROR', message: /import|not supported|Cannot/i },
  },
  {
    category: 'constructor chain',
    name: 'hostGlobals',
    code: `const g = Function('return this')();
      return ['process', 'require', 'module', 'Buffer', 'global', 'setTimeout', 'setImmediate', 'WebAssembly',
        'SharedArrayBuffer', '__pcSync', '__pcAsync', '__pcLog', '__pcDone']
        .filter((name) => typeof g[name] !== 'undefined' && name !== 'SharedArrayBuffer').join(',') || 'none';`,
    verdict: { value: 'none' },
  },
  // Prototype pollution stays in the call's own context: the next call and the gateway never see it.
  {
    category: 'prototype pollution',
    name: 'pollute',
    code: `Object.prototype.isAdmin = true; Array.prototype.includes = () => true;
      Object.defineProperty(Object.prototype, 'toJSON', { value: undefined, writable: true });
      JSON.stringify = () => '{"forged":true}';
      return 'polluted';`,
    verdict: { value: 'polluted' },
  },
  {
    category: 'prototype pollution',
    name: 'afterPollution',
    code: "return [typeof ({}).isAdmin, [].includes(1), JSON.stringify({ a: 1 })].join('|');",
    verdict: { value: 'undefined|false|{"a":1}' },
  },
  {
    category: 'prototype pollution',
    name: 'protoResult',
    code: `const fromJson = JSON.parse('{"__proto__": {"polluted": "json"}, "constructor": {"prototype": {"polluted": "c"}}}');
      const fromYaml = safety.parser.yaml('__proto__:\\n  polluted: yaml\\n');
      const fromCsv = safety.parser.csv('__proto__,constructor\\nx,y\\n', { header: true });
      return { fromJson, fromYaml, fromCsv };`,
    verdict: { value: /"__proto__":\{"polluted":"json"\}.*"__proto__":\{"polluted":"yaml"\}/ },
  },
  {
    category: 'prototype pollution',
    name: 'thenTrap',
    code: "Object.prototype.then = function (resolve) { resolve('resolved by the trap'); }; return { a: 1 };",
    verdict: { value: 'resolved by the trap' },
  },
  // Proxies: their traps run inside the isolate, at serialization or argument copying, never in the host.
  {
    category: 'proxy',
    name: 'proxyResult',
    code: "return new Proxy({}, { ownKeys() { throw new Error('ownKeys trap ran'); } });",
    verdict: { error: 'SANDBOX_ERROR', message: /not JSON-serializable: ownKeys trap ran/ },
  },
  {
    category: 'proxy',
    name: 'proxyGetterResult',
    code: "return new Proxy({ a: 1 }, { get(target, key) { return key === 'a' ? 'from the get trap' : target[key]; } });",
    verdict: { value: '{"a":"from the get trap"}' },
  },
  {
    category: 'proxy',
    name: 'proxyHelperArg',
    code: "return atob(new Proxy({}, { get() { throw new Error('trap in a helper argument'); } }));",
    verdict: { error: 'SANDBOX_ERROR', message: /trap in a helper argument/ },
  },
  {
    category: 'proxy',
    name: 'proxyParserOptions',
    code: "return safety.parser.csv('a,b\\n1,2', new Proxy({}, { get(_, key) { if (key === 'header') throw new Error('trap in parser options'); } }));",
    verdict: { error: 'SANDBOX_ERROR', message: /trap in parser options/ },
  },
  {
    category: 'proxy',
    name: 'proxyGlobal',
    code: `Object.setPrototypeOf(globalThis, new Proxy(Object.getPrototypeOf(globalThis), {
        get(target, key, receiver) { return key === 'process' ? { env: { SECRET: 'fake' } } : Reflect.get(target, key, receiver); },
        has() { return true; },
      }));
      return safety.parser.csv('a,b');`,
    verdict: { value: '[["a","b"]]' },
  },
  {
    category: 'proxy',
    name: 'revokedProxy',
    code: 'const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); console.log(proxy); return crypto.getRandomValues(proxy);',
    verdict: { error: 'SANDBOX_ERROR', message: /revoked|TypeError/ },
  },
  // Deep recursion: a stack overflow is an error of the tool; deep values are refused where they cross.
  {
    category: 'deep recursion',
    name: 'stackOverflow',
    code: 'function down(n) { return down(n + 1) + 1; } return down(0);',
    verdict: { error: 'SANDBOX_ERROR', message: /Maximum call stack size exceeded/ },
  },
  {
    category: 'deep recursion',
    name: 'mutualRecursion',
    code: 'const a = (n) => b(n) + 1; const b = (n) => a(n) + 1; return a(0);',
    verdict: { error: 'SANDBOX_ERROR', message: /Maximum call stack size exceeded/ },
  },
  {
    category: 'deep recursion',
    name: 'deepResult',
    code: 'let o = {}; for (let i = 0; i < 2000; i += 1) o = { o }; return o;',
    verdict: { error: 'UPSTREAM_ERROR', reason: 'result-too-deep' },
  },
  {
    category: 'deep recursion',
    name: 'veryDeepResult',
    code: 'let o = []; for (let i = 0; i < 1e5; i += 1) o = [o]; return o;',
    profile: null,
    verdict: { error: 'SANDBOX_ERROR', message: /not JSON-serializable: Maximum call stack size exceeded/ },
  },
  {
    category: 'deep recursion',
    name: 'deepYaml',
    code: "return safety.parser.yaml('['.repeat(100000));",
    verdict: { error: 'INVALID_INPUT', reason: 'nesting-too-deep' },
  },
  {
    category: 'deep recursion',
    name: 'deepXml',
    code: "return safety.parser.xml('<a>'.repeat(100000));",
    verdict: { error: 'INVALID_INPUT', reason: 'nesting-too-deep' },
  },
  {
    category: 'deep recursion',
    name: 'deepHtml',
    code: "return safety.parser.html('<div>'.repeat(100000)).text();",
    verdict: { error: 'INVALID_INPUT', reason: 'nesting-too-deep' },
  },
  // Memory bombs end in the isolate (its heap cap, V8's own allocation limits), never in the gateway's heap.
  {
    category: 'memory bomb',
    name: 'heapBomb',
    code: 'const hoard = []; for (;;) hoard.push(new Array(100000).fill(Math.random()));',
    profile: null,
    verdict: { error: 'SANDBOX_LIMIT', reason: ['memory', 'cpu-time'] },
  },
  {
    category: 'memory bomb',
    name: 'stringBomb',
    code: "let s = 'x'; for (;;) s += s;",
    profile: null,
    verdict: { error: 'SANDBOX_ERROR', message: /Invalid string length/ },
  },
  {
    category: 'memory bomb',
    name: 'bufferBomb',
    code: 'const keep = []; for (;;) keep.push(new ArrayBuffer(256 * 1024 * 1024));',
    profile: null,
    verdict: { error: 'SANDBOX_ERROR', message: /Array buffer allocation failed/ },
  },
  {
    category: 'memory bomb',
    name: 'resultBomb',
    code: "return 'x'.repeat(2e6);",
    profile: null,
    verdict: { error: 'SANDBOX_LIMIT', reason: 'result-size' },
  },
  {
    category: 'memory bomb',
    name: 'consoleBomb',
    code: "for (;;) console.log('x'.repeat(10000));",
    verdict: { error: 'SANDBOX_LIMIT', reason: 'cpu-time' },
  },
  // CPU bombs end at the CPU-time budget (2 s under the pure-compute profile); termination cannot be caught.
  {
    category: 'cpu bomb',
    name: 'spin',
    code: 'for (;;) {}',
    verdict: { error: 'SANDBOX_LIMIT', reason: 'cpu-time' },
  },
  {
    category: 'cpu bomb',
    name: 'spinCatch',
    code: 'for (;;) { try { for (;;) {} } catch (e) { } finally { continue; } }',
    verdict: { error: 'SANDBOX_LIMIT', reason: 'cpu-time' },
  },
  {
    category: 'cpu bomb',
    name: 'microtaskSpin',
    code: 'for (;;) await null;',
    verdict: { error: 'SANDBOX_LIMIT', reason: 'cpu-time' },
  },
  {
    category: 'cpu bomb',
    name: 'sortBomb',
    code: 'const a = Array.from({ length: 1e6 }, (_, i) => (i * 7919) % 1e6); a.sort((x, y) => { let s = 0; for (let i = 0; i < 1000; i += 1) s += i; return x - y + s * 0; }); return a.length;',
    verdict: { error: 'SANDBOX_LIMIT', reason: 'cpu-time' },
  },
  // ReDoS: catastrophic patterns run in the isolate, so the CPU budget ends them (the client can supply one).
  {
    category: 'redos',
    name: 'redosLiteral',
    code: "return /^(a+)+$/.test('a'.repeat(40) + 'b');",
    verdict: { error: 'SANDBOX_LIMIT', reason: 'cpu-time' },
  },
  {
    category: 'redos',
    name: 'redosFromClient',
    params: ['pattern', 'subject'],
    args: { pattern: '^(\\w+\\s?)*$', subject: `${'word '.repeat(12)}!`.repeat(3) },
    code: 'return new RegExp(pattern).test(subject);',
    verdict: { error: 'SANDBOX_LIMIT', reason: 'cpu-time' },
  },
  {
    category: 'redos',
    name: 'redosReplace',
    code: "return ('x'.repeat(30) + 'y').replace(/(x|x)*z/g, '');",
    verdict: { error: 'SANDBOX_LIMIT', reason: 'cpu-time' },
  },
  // Forgery: tool code cannot speak as the gateway or as a helper.
  {
    category: 'forgery',
    name: 'forgedHelperError',
    code: "const e = new Error('forged refusal'); e.name = 'HelperError'; e.code = 'SECURITY'; e.reason = 'path-escapes-base'; throw e;",
    verdict: { error: 'SANDBOX_ERROR', message: /forged refusal/ },
  },
];
