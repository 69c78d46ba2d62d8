/**
 * The in-isolate shim program, assembled from its parts. It runs once per fresh context and evaluates to the
 * `settle` function the host uses to resolve asynchronous helper calls. Tool code is wrapped so that it runs as
 * an async function body handed to `__pcRun`.
 */
import { CORE_SOURCE } from './core-source.ts';
import { CRYPTO_SOURCE } from './crypto-source.ts';
import { ENCODING_SOURCE } from './encoding-source.ts';
import { FETCH_SOURCE } from './fetch-source.ts';
import { FS_SOURCE } from './fs-source.ts';
import { HTML_SOURCE } from './html-source.ts';
import { RUN_SOURCE } from './run-source.ts';
import { URL_SOURCE } from './url-source.ts';

/** The bootstrap program; its completion value is the in-isolate `settle(id, ok, payload)` function. */
export const BOOTSTRAP_SOURCE = [
  '(function () {',
  "'use strict';",
  CORE_SOURCE,
  ENCODING_SOURCE,
  URL_SOURCE,
  CRYPTO_SOURCE,
  FETCH_SOURCE,
  FS_SOURCE,
  HTML_SOURCE,
  RUN_SOURCE,
  'return settle;',
  '})()',
].join('\n');

/** Wraps a tool body; the wrapper adds one line before the body (compile with lineOffset -1). */
export function wrapToolCode(code: string): string {
  return `__pcRun(async function () {\n${code}\n});`;
}
