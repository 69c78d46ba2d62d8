/**
 * Issue 20: the gateway owns the JSON-RPC wire of both hops and both eras, with one call path per hop. No source
 * file may build the SDK's `Client` (or import it as a value) beside the upstream clients of upstream/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Whether a file imports `Client` as a value from the SDK client package. */
const importsClient = (text: string) =>
  [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@modelcontextprotocol\/client'/g)].some((match) =>
    (match[1] ?? '').split(',').some((name) => name.trim() === 'Client'),
  );

describe('the SDK Client', () => {
  it('is neither built nor imported as a value anywhere in src/', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((file) => {
      const text = readFileSync(file, 'utf8');
      return /\bnew Client\s*\(/.test(text) || importsClient(text);
    });
    expect(offenders.map((file) => path.relative(SRC, file))).toEqual([]);
  });
});
