/**
 * Bundles the in-isolate shims (shim/*.ts, with css-select and picomatch) into one script, once per process, at
 * first use, with esbuild's buildSync; the text is kept in memory. Bundling at run time rather than in a build
 * step keeps one code path for `tsx` (how the gateway and the tests run), for `dist/` and for tests, and leaves
 * no generated file in the repository; it costs one esbuild run (tens of milliseconds) per process.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const GLOBAL_NAME = '__pcShim';
let bundled: string | undefined;

function sourceFile(relative: string): string {
  const source = fileURLToPath(new URL(relative, import.meta.url));
  // Compiled into dist/, the modules are JavaScript.
  return existsSync(source) ? source : source.replace(/\.ts$/, '.js');
}

/**
 * The shim program; its completion value is the in-isolate `settle(id, ok, payload)` function. The bundle's
 * own global name is a local of the wrapping function, so nothing of it is left on the isolate's global object.
 */
export function shimProgram(): string {
  if (bundled === undefined) {
    const result = buildSync({
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
    bundled = ['(function () {', "'use strict';", output.text, `return ${GLOBAL_NAME}.settle;`, '})()'].join(
      '\n',
    );
  }
  return bundled;
}
