import type { ErrorCode } from './codes.ts';

/** Options every Portcullis error may carry besides its code and message. */
export interface PortcullisErrorOptions {
  /** JSON pointer into the offending document, e.g. `/params/2/testValue`. */
  pointer?: string;
  /** A machine-readable reason inside the code, e.g. `path-escapes-base`. */
  reason?: string;
  /** Extra structured detail safe to show to the caller (already masked). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error class of Portcullis: a stable code, a message a person can act on, optional pointer and reason. */
export class PortcullisError extends Error {
  readonly code: ErrorCode;
  readonly pointer: string | undefined;
  readonly reason: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: PortcullisErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PortcullisError';
    this.code = code;
    this.pointer = options.pointer;
    this.reason = options.reason;
    this.details = options.details;
  }

  /** A plain JSON view for logs, CLI output and tool results. */
  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      message: this.message,
      ...(this.pointer === undefined ? {} : { pointer: this.pointer }),
      ...(this.reason === undefined ? {} : { reason: this.reason }),
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

/** True when the value is a PortcullisError, optionally of the given code. */
export function isPortcullisError(value: unknown, code?: ErrorCode): value is PortcullisError {
  return value instanceof PortcullisError && (code === undefined || value.code === code);
}
