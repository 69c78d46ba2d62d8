/** shared: the few pieces every domain may use — the linear-time regular expression engine, JSON Pointer and Java-compatible text helpers. */
export { linearRegExp, NonLinearPatternError, NON_LINEAR_PATTERN } from './linear-regexp.ts';
export { parseJsonPointer, resolveJsonPointer } from './json-pointer.ts';
export { PORTCULLIS_VERSION } from './version.ts';
