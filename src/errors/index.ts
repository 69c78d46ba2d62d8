/**
 * errors: the stable error codes of Portcullis and the one error class that carries them.
 * Every domain throws PortcullisError; the gateway maps it to the wire in one place.
 */
export { ERROR_CODES } from './codes.ts';
export type { ErrorCode } from './codes.ts';
export { PortcullisError, isPortcullisError } from './portcullis-error.ts';
