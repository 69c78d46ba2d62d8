/**
 * The in-isolate shim program and the wrapper for tool code. The program runs once per fresh context and
 * evaluates to the `settle` function the host uses to resolve asynchronous helper calls; tool code is wrapped
 * so that it runs as an async function body handed to `__pcRun`.
 */
export { shimProgram as bootstrapSource } from './bundle.ts';

/** Wraps a tool body; the wrapper adds one line before the body (compile with lineOffset -1). */
export function wrapToolCode(code: string): string {
  return `__pcRun(async function () {\n${code}\n});`;
}
