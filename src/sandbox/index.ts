/**
 * sandbox: the V8-isolate runtime for Safe Tool Spec code (isolated-vm), its helpers (fetch behind the egress
 * guard, safety.fs, safety.parser, crypto, encoding, console) and secret masking. Tool code gets copied values
 * and host callbacks only; no host object ever enters an isolate.
 */
export { createToolRunner } from './tool-runner.ts';

export type { SandboxRunner, ToolRunner, ToolRunRequest, ToolRunResult } from './runner.ts';
export type { QuarantineEntry } from './runtime/quarantine.ts';
export type { NetworkMode, SandboxLimits, SandboxPolicy } from './policy.ts';

export { createEgressGuard } from './egress/egress-guard.ts';

export type { EgressPolicy, ResolvedAddress } from './egress/types.ts';

export { bindingProblem, injectedGlobalNames, isBindableName } from './runtime/arguments.ts';
