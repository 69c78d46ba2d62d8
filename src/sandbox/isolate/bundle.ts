/**
 * Bundles the in-isolate shims (shim/*.ts, with css-select and picomatch) into one script, once per process, at
 * first use, with esbuild's asynchronous build (it runs in esbuild's own process, so the gateway's event loop
 * is not held); the text is kept in memory. Bundling at run time rather than in a build step keeps one code
 * path for `tsx` (how the gateway and the tests run), for `dist/` and for tests, and leaves no generated file
 * in the repository; it costs one esbuild run per process (under a second, paid by the first local-tool call).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const GLOBAL_NAME = '__pcShim';
let bundled: Promise<string> | undefined;

function sourceFile(relative: string): string {
  const source = fileURLToPath(new URL(relative, import.meta.url));
  // Compiled into dist/, the modules are JavaScript.
  return existsSync(source) ? source : source.replace(/\.ts$/, '.js');
}

/**
 * The shim program; its completion value is the in-isolate `settle(id, ok, payload)` function. The bundle's
 * own global name is a local of the wrapping function, so nothing of it is left on the isolate's global object.
 */
export function shimProgram(): Promise<string> {
  bundled ??= bundle().catch((error: unknown) => {
    // A failed build is not cached: the next call tries again (and reports its own failure).
    bundled = undefined;
    throw error;
  });
  return bundled;
}

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [sourceFile('./shim/index.ts')],
    alias: { domutils: sourceFile('./shim/html/no-dom-utils.ts') },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: GLOBAL_NAME,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    keepNames: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild produced no isolate bundle');
  return ['(function () {', "'use strict';", output.text, `return ${GLOBAL_NAME}.settle;`, '})()'].join('\n');
}
