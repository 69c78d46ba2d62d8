/**
 * The host callbacks behind the in-isolate shims. Everything that arrives here was copied out of the isolate
 * and is treated as untrusted input: types are checked, sizes bounded, and every result is plain data copied
 * back. Binary results are always fresh, exact-size arrays (never views into pooled host memory).
 * The synchronous operations depend only on a serializable `HostOpEnv`, so that they can run in a worker
 * thread (see host-worker-pool.ts); fetch runs on the main thread, where it only waits on sockets.
 * Longer than most files on purpose: it is the one dispatch table of host operations, each a few lines of checks,
 * so the whole surface the isolate can reach is reviewable in one file.
 */
import { createHash, createHmac, randomFillSync, randomUUID, timingSafeEqual } from 'node:crypto';
import { PortcullisError, isPortcullisError } from '../../errors/index.ts';
import type { EgressGuard } from '../egress/egress-guard.ts';
import type { SecretVault } from '../egress/secret-vault.ts';
import type { FsScope } from '../fs/fs-scope.ts';
import { createSafeFs } from '../fs/safe-fs.ts';
import type { FsGrants, SafeFs, SafeFsLimits } from '../fs/safe-fs.ts';
import { parseCsv, parseYaml } from '../parsers/data.ts';
import { parseHtml, parseXml } from '../parsers/markup.ts';
import { sanitizeMarkup } from '../parsers/sanitize.ts';
import type { SandboxPolicy } from '../policy.ts';

/** Where safety.fs works for one call: plain data, so it can cross to a worker thread. */
export interface FsSpec {
  scope: FsScope;
  grants: FsGrants;
  limits: Partial<SafeFsLimits>;
}

/** What a synchronous host operation may use: plain data, copied to whichever thread runs it. */
export interface HostOpEnv {
  /** Present when the policy grants fileRead or fileWrite and a workspace is configured. */
  fs: FsSpec | null;
  fileRead: boolean;
  fileWrite: boolean;
  /** Largest string a parser accepts. */
  maxParserInputChars: number;
}

/** What a host operation may use during one call. */
export interface HostContext {
  policy: SandboxPolicy;
  env: HostOpEnv;
  egress: EgressGuard;
  /** Aborted when the call ends; cancels outstanding host work. */
  signal: AbortSignal;
  /** When the call's wall-clock budget runs out, in `performance.now()` milliseconds. */
  deadline: number;
  /** The run's secret handles, revealed by the egress guard only; absent when the tool sees plaintext. */
  secrets?: SecretVault;
}

/** The error shape that crosses into the isolate. */
export interface HelperErrorData {
  code: string;
  reason?: string;
  message: string;
}

/** The reply of a synchronous operation. */
export type SyncReply = { ok: true; value: unknown } | { ok: false; error: HelperErrorData };

/** Converts any thrown value into the error data the isolate sees. */
export function toHelperError(error: unknown): HelperErrorData {
  if (isPortcullisError(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.reason === undefined ? {} : { reason: error.reason }),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'HELPER_RUNTIME', reason: 'internal', message };
}

function invalid(message: string, reason: string): PortcullisError {
  return new PortcullisError('INVALID_INPUT', message, { reason });
}

function arg(args: unknown, index: number): unknown {
  return Array.isArray(args) ? args[index] : undefined;
}

function str(args: unknown, index: number, label: string): string {
  const value = arg(args, index);
  if (typeof value !== 'string') throw invalid(`${label}: expected a string`, 'invalid-argument');
  return value;
}

function optionalStr(args: unknown, index: number, label: string): string | undefined {
  const value = arg(args, index);
  return value === undefined || value === null ? undefined : str(args, index, label);
}

function bytes(args: unknown, index: number, label: string): Uint8Array {
  const value = arg(args, index);
  if (!(value instanceof Uint8Array)) throw invalid(`${label}: expected bytes`, 'invalid-argument');
  return value;
}

/** A fresh array that owns exactly its bytes (a copied view would carry its whole backing buffer). */
export function exactBytes(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.byteLength);
  out.set(data);
  return out;
}

const HASHES: Record<string, string> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};

function hashName(name: string, label: string): string {
  const hash = HASHES[name.toUpperCase()];
  if (hash === undefined) throw invalid(`${label}: unsupported algorithm ${name}`, 'unsupported-algorithm');
  return hash;
}

const MAX_RANDOM_BYTES = 65_536;

function urlFields(url: URL): Record<string, string> {
  return {
    href: url.href,
    origin: url.origin,
    protocol: url.protocol,
    username: url.username,
    password: url.password,
    host: url.host,
    hostname: url.hostname,
    port: url.port,
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
  };
}

const URL_SETTERS = new Set([
  'protocol',
  'username',
  'password',
  'host',
  'hostname',
  'port',
  'pathname',
  'search',
  'hash',
]);

function parseUrl(input: string, base?: string): URL {
  try {
    return base === undefined ? new URL(input) : new URL(input, base);
  } catch {
    throw invalid(`Invalid URL: ${input}`, 'invalid-url');
  }
}

function parserInput(env: HostOpEnv, args: unknown, label: string): string {
  const text = str(args, 0, label);
  if (text.length > env.maxParserInputChars) {
    throw invalid(`${label}: input larger than ${env.maxParserInputChars} characters`, 'input-too-large');
  }
  return text;
}

function requireFs(env: HostOpEnv): SafeFs {
  if (env.fs !== null) return createSafeFs(env.fs.scope, env.fs.grants, env.fs.limits);
  if (env.fileRead || env.fileWrite) {
    throw new PortcullisError('HELPER_RUNTIME', 'safety.fs: no workspace is configured for this tool', {
      reason: 'workspace-not-configured',
    });
  }
  throw new PortcullisError('SECURITY', 'safety.fs is not available to this tool', {
    reason: 'file-access-not-allowed',
  });
}

function syncOperation(env: HostOpEnv, op: string, args: unknown): unknown {
  switch (op) {
    case 'url.parse':
      return urlFields(parseUrl(str(args, 0, 'URL'), optionalStr(args, 1, 'URL')));
    case 'url.set': {
      const field = str(args, 1, 'URL');
      const value = str(args, 2, 'URL');
      if (field === 'href') return urlFields(parseUrl(value));
      if (!URL_SETTERS.has(field)) throw invalid(`URL: ${field} cannot be set`, 'invalid-argument');
      const url = parseUrl(str(args, 0, 'URL'));
      (url as unknown as Record<string, string>)[field] = value;
      return urlFields(url);
    }
    case 'crypto.digest':
      return exactBytes(
        createHash(hashName(str(args, 0, 'crypto.subtle.digest'), 'crypto.subtle.digest'))
          .update(bytes(args, 1, 'crypto.subtle.digest'))
          .digest(),
      );
    case 'crypto.hmac':
      return exactBytes(
        createHmac(
          hashName(str(args, 0, 'crypto.subtle.sign'), 'crypto.subtle.sign'),
          bytes(args, 1, 'crypto.subtle.sign'),
        )
          .update(bytes(args, 2, 'crypto.subtle.sign'))
          .digest(),
      );
    case 'crypto.verify': {
      const expected = createHmac(
        hashName(str(args, 0, 'crypto.subtle.verify'), 'crypto.subtle.verify'),
        bytes(args, 1, 'crypto.subtle.verify'),
      )
        .update(bytes(args, 3, 'crypto.subtle.verify'))
        .digest();
      const signature = bytes(args, 2, 'crypto.subtle.verify');
      return signature.byteLength === expected.byteLength && timingSafeEqual(signature, expected);
    }
    case 'crypto.random': {
      const size = arg(args, 0);
      if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > MAX_RANDOM_BYTES) {
        throw invalid(`crypto.getRandomValues: at most ${MAX_RANDOM_BYTES} bytes`, 'quota-exceeded');
      }
      return randomFillSync(new Uint8Array(size));
    }
    case 'crypto.uuid':
      return randomUUID();
    case 'parser.html':
      return parseHtml(parserInput(env, args, 'safety.parser.html'));
    case 'parser.sanitizeHtml':
      return sanitizeMarkup(parserInput(env, args, 'safety.parser.html'));
    case 'parser.xml':
      return parseXml(parserInput(env, args, 'safety.parser.xml'));
    case 'parser.yaml':
      return parseYaml(parserInput(env, args, 'safety.parser.yaml'));
    case 'parser.csv': {
      const header = arg(args, 1) === true;
      const delimiter = optionalStr(args, 2, 'safety.parser.csv');
      return parseCsv(parserInput(env, args, 'safety.parser.csv'), {
        header,
        keepFormulas: arg(args, 3) === true,
        ...(delimiter === undefined ? {} : { delimiter }),
      });
    }
    default:
      return fsOperation(env, op, args);
  }
}

function fsOperation(env: HostOpEnv, op: string, args: unknown): unknown {
  if (!op.startsWith('fs.')) throw invalid(`unknown helper operation ${op}`, 'unknown-operation');
  const fs = requireFs(env);
  const path = arg(args, 0);
  switch (op) {
    case 'fs.readText':
      return fs.readText(path);
    case 'fs.list':
      return fs.list(path);
    case 'fs.exists':
      return fs.exists(path);
    case 'fs.stat':
      return fs.stat(path);
    case 'fs.walk': {
      const depth = arg(args, 1);
      return fs.walk(path, typeof depth === 'number' ? depth : 0);
    }
    case 'fs.readMany': {
      if (!Array.isArray(path))
        throw invalid('safety.fs.searchInFiles: expected a list of paths', 'invalid-argument');
      return fs.readMany(path);
    }
    case 'fs.writeText':
      return fs.writeText(path, str(args, 1, 'safety.fs.writeText'));
    case 'fs.appendText':
      return fs.appendText(path, str(args, 1, 'safety.fs.appendText'));
    case 'fs.editText':
      return fs.editText(
        path,
        str(args, 1, 'safety.fs.editText'),
        str(args, 2, 'safety.fs.editText'),
        arg(args, 3) === true,
      );
    case 'fs.copy':
      return fs.copy(path, arg(args, 1));
    case 'fs.move':
      return fs.move(path, arg(args, 1));
    case 'fs.delete':
      return fs.delete(path);
    case 'fs.deleteDir':
      return fs.deleteDir(path);
    default:
      throw invalid(`unknown helper operation ${op}`, 'unknown-operation');
  }
}

/** Runs one synchronous helper operation on the calling thread; never throws. */
export function runSyncOperation(env: HostOpEnv, op: unknown, args: unknown): SyncReply {
  try {
    if (typeof op !== 'string') throw invalid('helper operation must be a string', 'unknown-operation');
    return { ok: true, value: syncOperation(env, op, args) };
  } catch (error) {
    return { ok: false, error: toHelperError(error) };
  }
}

function headerPairs(value: unknown): Array<[string, string]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid('fetch: headers must be a list of pairs', 'invalid-header');
  return value.map((pair: unknown) => {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
      throw invalid('fetch: headers must be pairs of strings', 'invalid-header');
    }
    return [pair[0], pair[1]];
  });
}

async function fetchOperation(context: HostContext, args: unknown): Promise<unknown> {
  if (context.policy.networkMode === 'blocked') {
    throw new PortcullisError('SECURITY', 'fetch refused: network access is blocked', {
      reason: 'network-blocked',
    });
  }
  const request = arg(args, 0);
  if (request === null || typeof request !== 'object')
    throw invalid('fetch: missing request', 'invalid-argument');
  const input = request as Record<string, unknown>;
  const read = (key: string): unknown => (Object.hasOwn(input, key) ? input[key] : undefined);
  const url = read('url');
  if (typeof url !== 'string') throw invalid('fetch: missing url argument', 'missing-url');
  const method = read('method');
  const body = read('body');
  const maxLength = read('maxLength');
  const startIndex = read('startIndex');
  if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw invalid('fetch: body must be a string or bytes', 'invalid-body');
  }
  const response = await context.egress.fetch(
    {
      url,
      method: typeof method === 'string' ? method : 'GET',
      headers: headerPairs(read('headers')),
      body: body === undefined ? null : (body as string | Uint8Array | null),
      ...(typeof maxLength === 'number' ? { maxLength } : {}),
      ...(typeof startIndex === 'number' ? { startIndex } : {}),
      signal: context.signal,
      ...(context.secrets === undefined ? {} : { secrets: context.secrets }),
    },
    {
      networkMode: context.policy.networkMode,
      hostsAllow: context.policy.hostsAllow,
      maxFetchBytes: context.policy.limits.maxFetchBytes,
    },
  );
  return { ...response, body: exactBytes(response.body) };
}

/** Runs one asynchronous helper operation; rejects with the error data the isolate sees. */
export async function runAsyncOperation(context: HostContext, op: unknown, args: unknown): Promise<unknown> {
  if (op === 'fetch') return fetchOperation(context, args);
  throw invalid(`unknown helper operation ${String(op)}`, 'unknown-operation');
}
