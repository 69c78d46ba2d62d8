/** Process entry: CLI → config → wiring → listen → signals. The only module with process-level side effects. */
import { runCli } from './cli/index.ts';
import { installProcessFaultHandlers } from './cli/index.ts';

installProcessFaultHandlers((code) => process.exit(code));
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
process.exitCode = code;
// Upstream children and sockets may linger after close(); the command is done, so end the process — once
// stdout is flushed: a pipe is written asynchronously, and exiting first would cut a long report short.
process.stdout.write('', () => setTimeout(() => process.exit(code), 100));
