/**
 * What the process does with failures nothing else caught: one masked line each, never a stack trace.
 * An uncaught exception ends the process with status 1 (its state can no longer be trusted); an unhandled
 * rejection is logged at `error` and the gateway keeps serving (one lost promise must not drop every client);
 * a closed stdout (`portcullis audit tail | head -1`) ends the process quietly with status 0.
 */
import { isPortcullisError } from '../errors/index.ts';
import { createMasker, type Masker } from '../secrets/index.ts';
import { createLogger } from '../telemetry/index.ts';

/** The longest error message a fault line carries. */
const MAX_MESSAGE_CHARS = 500;

let masker: Masker = createMasker();

/** Masks fault lines with the configuration's secrets from now on (called once the config is loaded). */
export function maskFaultsWith(next: Masker): void {
  masker = next;
}

/** The stable code and first message line of any thrown value, masked and bounded. */
export function describeFault(error: unknown): { code: string; message: string } {
  const code = isPortcullisError(error)
    ? error.code
    : typeof (error as { code?: unknown } | null)?.code === 'string'
      ? String((error as { code: string }).code)
      : 'INTERNAL';
  const text = error instanceof Error ? error.message : String(error);
  const firstLine = text.split('\n', 1)[0] ?? '';
  return { code, message: masker.mask(firstLine).slice(0, MAX_MESSAGE_CHARS) };
}

/** Writes one `error` line for a fault (JSON on stderr, masked). */
export function logFault(event: string, error: unknown): void {
  createLogger({ level: 'error', masker }).log(event, describeFault(error), 'error');
}

/** Installs the process-wide handlers; `exit` ends the process with a status. */
export function installProcessFaultHandlers(exit: (code: number) => void): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return exit(0);
    logFault('process.stdout_failed', error);
    exit(1);
  });
  // Nowhere is left to report a failing stderr; the process keeps its exit status.
  process.stderr.on('error', () => {});
  process.on('uncaughtException', (error) => {
    logFault('process.uncaught_exception', error);
    exit(1);
  });
  process.on('unhandledRejection', (reason) => logFault('process.unhandled_rejection', reason));
}
