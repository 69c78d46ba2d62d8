/**
 * Runs one argument validation in a child process, for tests that must survive a validation that freezes
 * its thread: prints `ready`, reads `{ schema, args }` as JSON on stdin, prints the outcome as one JSON line.
 */
import { createArgumentValidator } from '../../src/calls/argument-validator.ts';

process.stdout.write('ready\n');
let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const { schema, args } = JSON.parse(input) as { schema: Record<string, unknown>; args: unknown };
const started = performance.now();
try {
  createArgumentValidator().validate('probe', schema, args);
  process.stdout.write(`${JSON.stringify({ valid: true, ms: performance.now() - started })}\n`);
} catch (error) {
  const err = error as { code?: string; message: string };
  const outcome = { valid: false, code: err.code, message: err.message, ms: performance.now() - started };
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
}
