/**
 * Path confinement for safety.fs (reference-rules §12, spec §10.5): paths resolve against the workspace, are
 * normalized, and are checked component-wise on REAL paths (the realpath of the longest existing ancestor with
 * the rest appended), so that `..`, absolute paths, symlinks pointing out and `/ws-evil` next to `/ws` all fail.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { PortcullisError } from '../../errors/index.ts';

/** The roots one tool's safety.fs works in: the only writable root and the readable roots. */
export interface FsScope {
  /** Absolute, normalized; the only writable root and the base of relative paths. */
  workspace: string;
  /** Absolute, normalized; reads must fall under one of them (the workspace is always one). */
  readRoots: string[];
}

/** A checked path: what the tool asked for (candidate) and where it really lives (real). */
export interface CheckedPath {
  candidate: string;
  real: string;
}

/** Builds a scope; `readRoots` are added to the workspace, nested duplicates are kept harmlessly. */
export function createFsScope(workspace: string, readRoots: readonly string[] = []): FsScope {
  const ws = path.resolve(workspace);
  const roots = [ws, ...readRoots.map((root) => path.resolve(root))];
  return { workspace: ws, readRoots: [...new Set(roots)] };
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * The real location of `candidate`: realpath of its longest existing ancestor plus the missing rest, or null
 * when an existing component cannot be resolved (a dangling or looping symlink: its target is unknown).
 */
export function realPathOf(candidate: string): string | null {
  const tail: string[] = [];
  let cursor = candidate;
  for (;;) {
    try {
      lstatSync(cursor);
    } catch (error) {
      if (!isMissing(error)) return null;
      const parent = path.dirname(cursor);
      if (parent === cursor) return candidate;
      tail.unshift(path.basename(cursor));
      cursor = parent;
      continue;
    }
    let real: string;
    try {
      real = realpathSync.native(cursor);
    } catch {
      // An existing ancestor that cannot be resolved (permissions, a race): the caller refuses the path.
      return null;
    }
    return tail.length === 0 ? real : path.join(real, ...tail);
  }
}

/** True when `child` is `root` or lies under it, compared by whole path components. */
export function isWithin(child: string, root: string): boolean {
  if (child === root) return true;
  const prefix = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  return child.startsWith(prefix);
}

/** Resolves a tool-supplied path against the workspace; refuses missing, non-string and NUL-bearing paths. */
export function candidatePath(scope: FsScope, input: unknown): string {
  if (typeof input !== 'string' || input === '') {
    throw new PortcullisError('INVALID_INPUT', 'safety.fs: a path is required', { reason: 'path-required' });
  }
  if (input.includes('\0')) {
    throw new PortcullisError('INVALID_INPUT', 'safety.fs: the path contains a NUL byte', {
      reason: 'invalid-path',
    });
  }
  return path.resolve(scope.workspace, input);
}

function realRoot(root: string): string {
  return realPathOf(root) ?? root;
}

/** Checks a path for reading: its real path must lie under the real path of a read root. */
export function checkRead(scope: FsScope, input: unknown): CheckedPath {
  const candidate = candidatePath(scope, input);
  const real = realPathOf(candidate);
  if (real === null || !scope.readRoots.some((root) => isWithin(real, realRoot(root)))) {
    throw new PortcullisError('SECURITY', `safety.fs: path escapes the allowed roots: ${String(input)}`, {
      reason: 'path-escapes-base',
    });
  }
  return { candidate, real };
}

/** Checks a path for writing: not a symlink itself, and its real path under the real workspace. */
export function checkWrite(scope: FsScope, input: unknown): CheckedPath {
  const candidate = candidatePath(scope, input);
  let isLink: boolean;
  try {
    isLink = lstatSync(candidate).isSymbolicLink();
  } catch {
    // Nothing there yet (a new file): not a link; the real-path check below still applies.
    isLink = false;
  }
  if (isLink) {
    throw new PortcullisError(
      'SECURITY',
      `safety.fs: writes may not go through a symbolic link: ${String(input)}`,
      {
        reason: 'write-through-symlink',
      },
    );
  }
  const real = realPathOf(candidate);
  if (real === null || !isWithin(real, realRoot(scope.workspace))) {
    throw new PortcullisError(
      'SECURITY',
      `safety.fs: writes are confined to the workspace: ${String(input)}`,
      {
        reason: 'write-outside-workspace',
      },
    );
  }
  return { candidate, real };
}

/** The path shown to tool code: relative to the workspace when inside it, else absolute. */
export function displayPath(scope: FsScope, candidate: string): string {
  if (candidate === scope.workspace) return '.';
  return isWithin(candidate, scope.workspace) ? path.relative(scope.workspace, candidate) : candidate;
}
