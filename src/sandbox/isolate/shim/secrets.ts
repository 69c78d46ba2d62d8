/**
 * The secret helpers tool code may use: both run on the host, which swaps a secret handle for its value there,
 * so the value never enters the isolate (docs/design/secrets-as-handles.md).
 */
import { callSync, define } from './bridge.ts';

/** Options of `safety.crypto.hmac`, as tool code passes them. */
interface HmacOptions {
  readonly algorithm?: unknown;
  readonly encoding?: unknown;
}

/** `safety.crypto`: an HMAC keyed by a secret handle (or plain text), computed on the host. */
export const secretCrypto = {};
define(secretCrypto, 'hmac', function (key: unknown, data: unknown, options?: HmacOptions | null) {
  const opts = options ?? {};
  return callSync('secret.hmac', [key, data, opts.algorithm, opts.encoding]);
});

/** `safety.http`: a Basic authorization header value that is itself a handle, filled in at egress. */
export const secretHttp = {};
define(secretHttp, 'basicAuth', function (user: unknown, password: unknown) {
  return callSync('secret.basicAuth', [user, password]);
});
