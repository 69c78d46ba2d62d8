/** The version of Portcullis, read once from its package.json (what the MCP handshakes and telemetry announce). */
import { readFileSync } from 'node:fs';

/** The `version` of package.json. */
export const PORTCULLIS_VERSION: string = readVersion();

function readVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  if (typeof manifest === 'object' && manifest !== null && 'version' in manifest) {
    if (typeof manifest.version === 'string') return manifest.version;
  }
  throw new Error('package.json has no version');
}
