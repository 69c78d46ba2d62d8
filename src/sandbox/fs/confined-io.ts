/**
 * The confined I/O primitives of safety.fs: reading a regular file, listing a directory and opening a write
 * target, each through a descriptor checked by fd-open.ts, and the mapping of host I/O errors for tool code.
 */
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { PortcullisError } from '../../errors/index.ts';
import { closeQuietly, openConfined, openDirConfined, viaDescriptor } from './fd-open.ts';
import { isWithin, realPathOf } from './fs-scope.ts';
import type { CheckedPath } from './fs-scope.ts';

/** The errno code of a thrown value, if any. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Refuses a file with more than one name: its other names may lie outside every allowed root, and the
 * descriptor cannot tell where, so reading or writing it could reach a file outside the base.
 */
export function refuseHardLink(info: Stats, operation: string, input: unknown): void {
  if (info.isFile() && info.nlink > 1) {
    throw new PortcullisError(
      'SECURITY',
      `safety.fs.${operation}: the file has other hard links, which may lie outside the allowed roots: ${String(input)}`,
      { reason: 'hard-linked-file' },
    );
  }
}

/**
 * Reads a regular file by descriptor: opened without following a final symlink and without blocking (a FIFO
 * would otherwise wait for a writer forever), then checked with fstat before a byte is read.
 */
export function readRegularFile(
  real: string,
  roots: readonly string[],
  operation: string,
  input: unknown,
  maxBytes: number,
): string {
  const fd = openConfined(real, roots, constants.O_RDONLY, input);
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) {
      throw new PortcullisError('INVALID_INPUT', `safety.fs.${operation}: is a directory: ${String(input)}`, {
        reason: 'is-a-directory',
      });
    }
    if (!info.isFile()) {
      throw new PortcullisError(
        'SECURITY',
        `safety.fs.${operation}: not a regular file (a FIFO, device or socket): ${String(input)}`,
        { reason: 'not-a-regular-file' },
      );
    }
    refuseHardLink(info, operation, input);
    if (info.size > maxBytes) {
      throw new PortcullisError(
        'HELPER_RUNTIME',
        `safety.fs.${operation}: file larger than ${maxBytes} bytes`,
        {
          reason: 'file-too-large',
        },
      );
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

// Host error messages carry absolute host paths; the tool sees the operation, the errno and its own path.
/** A host I/O error as the tool may see it (its own path, the operation and the errno). */
export function ioError(operation: string, input: unknown, error: unknown): PortcullisError {
  if (error instanceof PortcullisError) return error;
  const code = codeOf(error);
  if (code === 'ENXIO') {
    // Opening a socket (or a FIFO end with no peer) fails this way: it is not a regular file.
    return new PortcullisError(
      'SECURITY',
      `safety.fs.${operation}: not a regular file (a FIFO, device or socket): ${String(input)}`,
      { reason: 'not-a-regular-file' },
    );
  }
  if (code === 'ELOOP') {
    return new PortcullisError(
      'SECURITY',
      `safety.fs.${operation}: the path changed to a symbolic link while it was opened: ${String(input)}`,
      { reason: 'path-escapes-base' },
    );
  }
  const reason = code === 'ENOENT' ? 'not-found' : code === 'EISDIR' ? 'is-a-directory' : 'io';
  return new PortcullisError(
    'HELPER_RUNTIME',
    `safety.fs.${operation}: ${code ?? 'I/O error'}: ${String(input)}`,
    {
      reason,
    },
  );
}

/** Creates missing parents of a checked write target and re-checks that the parent is in the workspace. */
export function prepareParent(workspace: string, target: CheckedPath, input: unknown): void {
  const parent = path.dirname(target.real);
  mkdirSync(parent, { recursive: true });
  const realParent = realpathSync.native(parent);
  const workspaceReal = realPathOf(workspace) ?? workspace;
  if (!isWithin(realParent, workspaceReal)) {
    throw new PortcullisError(
      'SECURITY',
      `safety.fs: writes are confined to the workspace: ${String(input)}`,
      {
        reason: 'write-outside-workspace',
      },
    );
  }
}

/** Runs `body` with the target's parent directory open and checked, naming the target relative to it. */
export function inParent<T>(
  workspaceRoots: readonly string[],
  target: CheckedPath,
  input: unknown,
  body: (entry: string) => T,
): T {
  const parent = path.dirname(target.real);
  const dirFd = openDirConfined(parent, workspaceRoots, input);
  try {
    return body(viaDescriptor(dirFd, path.basename(target.real), parent));
  } finally {
    closeQuietly(dirFd);
  }
}

/** Opens a file for writing inside its checked parent: never through a symlink, never blocking on a FIFO. */
export function openForWrite(
  workspace: string,
  workspaceRoots: readonly string[],
  target: CheckedPath,
  input: unknown,
  append: boolean,
): number {
  prepareParent(workspace, target, input);
  // No O_TRUNC at open: the file is truncated only after the descriptor passed its checks.
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    constants.O_NOFOLLOW |
    constants.O_NONBLOCK |
    (append ? constants.O_APPEND : 0);
  const fd = inParent(workspaceRoots, target, input, (entry) => openSync(entry, flags, 0o644));
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) {
      throw new PortcullisError('SECURITY', `safety.fs: not a regular file: ${String(input)}`, {
        reason: 'not-a-regular-file',
      });
    }
    refuseHardLink(info, append ? 'appendText' : 'writeText', input);
    if (!append) ftruncateSync(fd, 0);
  } catch (error) {
    closeQuietly(fd);
    throw error;
  }
  return fd;
}

/** Lists a checked directory through its descriptor; null when it does not exist. */
export function listDir(
  roots: readonly string[],
  real: string,
  input: unknown,
  operation: string,
): Dirent[] | null {
  let dirFd: number;
  try {
    dirFd = openDirConfined(real, roots, input);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return null;
    if (code === 'ENOTDIR') {
      throw new PortcullisError(
        'INVALID_INPUT',
        `safety.fs.${operation}: not a directory: ${String(input)}`,
        {
          reason: 'not-a-directory',
        },
      );
    }
    throw error;
  }
  try {
    return readdirSync(viaDescriptor(dirFd, '', real), { withFileTypes: true });
  } finally {
    closeQuietly(dirFd);
  }
}
