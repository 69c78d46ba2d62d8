/**
 * A tiny ToolRunner for unit tests of the spec domain: runs the code body with `new Function` in this process,
 * with the globals the real sandbox provides (console, TextEncoder/Decoder, atob/btoa, URL, crypto, and the
 * csv parser and a workspace-rooted readText/writeText for safety). It is NOT a sandbox; the isolated-vm
 * runner is tested by the sandbox domain, and the Local Pass integration test runs over it when available.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { ToolRunner, ToolRunRequest, ToolRunResult } from '../deps.ts';

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<unknown>;

/** The test runner, which also records every request it was given. */
export interface FunctionRunner extends ToolRunner {
  readonly requests: ToolRunRequest[];
}

function inside(root: string, path: string): string {
  const full = resolve(root, path);
  if (full !== root && !full.startsWith(root + sep)) throw new Error(`path escapes the workspace: ${path}`);
  return full;
}

/** Creates the in-process test runner; `workspace` roots safety.fs when a policy grants file access. */
export function createFunctionRunner(options: { workspace?: string } = {}): FunctionRunner {
  const requests: ToolRunRequest[] = [];
  return {
    requests,
    async run(request: ToolRunRequest): Promise<ToolRunResult> {
      requests.push(request);
      const lines: string[] = [];
      const log = (...parts: unknown[]): void => {
        lines.push(parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' '));
      };
      const root = resolve(request.policy.fsBasePath ?? options.workspace ?? '/nonexistent-workspace');
      const fs =
        request.policy.fileRead || request.policy.fileWrite
          ? {
              readText: async (path: string) => {
                if (!request.policy.fileRead) throw new Error('file read not allowed');
                return readFile(inside(root, path), 'utf8');
              },
              writeText: async (path: string, text: string) => {
                if (!request.policy.fileWrite) throw new Error('file write not allowed');
                const full = inside(root, path);
                await mkdir(dirname(full), { recursive: true });
                await writeFile(full, text, 'utf8');
              },
            }
          : undefined;
      const globals: Record<string, unknown> = {
        console: { log, info: log, warn: log, error: log, debug: log },
        TextEncoder,
        TextDecoder,
        atob,
        btoa,
        URL,
        URLSearchParams,
        crypto: {
          subtle: {
            digest: (alg: string, data: Uint8Array<ArrayBuffer>) =>
              globalThis.crypto.subtle.digest(alg, data),
          },
          getRandomValues: (array: Uint8Array<ArrayBuffer>) => globalThis.crypto.getRandomValues(array),
        },
        safety: {
          parser: {
            csv: (text: string, opts: { header?: boolean; delimiter?: string } = {}) =>
              parseCsv(text, { columns: opts.header === true, delimiter: opts.delimiter ?? ',' }) as unknown,
          },
          ...(fs === undefined ? {} : { fs }),
        },
      };
      if (request.policy.networkMode !== 'blocked') {
        globals['fetch'] = () => Promise.reject(new Error('the test runner has no network'));
      }
      const names = [...Object.keys(globals), ...Object.keys(request.args)];
      const values = [...Object.values(globals), ...Object.values(request.args)];
      try {
        const fn = new AsyncFunction(...names, request.code);
        const value: unknown = await fn(...values);
        return {
          ok: true,
          value: value === undefined ? null : JSON.parse(JSON.stringify(value)),
          console: lines,
          durationMs: 0,
        };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, code: 'SANDBOX_ERROR', message, console: lines, durationMs: 0 };
      }
    },
    evict: () => undefined,
    close: async () => undefined,
  };
}
