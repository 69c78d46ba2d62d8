/**
 * Opening by descriptor for safety.fs, so that what is checked is what is used (no time-of-check/time-of-use):
 * a path is opened once, without following a final symlink and without blocking, and the descriptor itself is
 * checked: on Linux the kernel's own path of the open file (/proc/self/fd) must lie under an allowed root.
 * Later work goes through the descriptor (`viaDescriptor` names a directory's entries relative to it, like
 * openat), never through the name again. Elsewhere the descriptor's device and inode must match a fresh lstat
 * of the checked path, which narrows the window but cannot close it.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { PortcullisError } from '../../errors/index.ts';
import { isWithin } from './fs-scope.ts';

const PROC_FD = '/proc/self/fd';
const HAS_PROC_FD = existsSync(PROC_FD);

function escapes(input: unknown): PortcullisError {
  return new PortcullisError('SECURITY', `safety.fs: path escapes the allowed roots: ${String(input)}`, {
    reason: 'path-escapes-base',
  });
}

/** The path that reaches `name` inside the directory open as `dirFd` (the directory itself when name is ''). */
export function viaDescriptor(dirFd: number, name = '', fallbackDir?: string): string {
  if (HAS_PROC_FD) return name === '' ? `${PROC_FD}/${dirFd}` : `${PROC_FD}/${dirFd}/${name}`;
  const dir = fallbackDir ?? '.';
  return name === '' ? dir : path.join(dir, name);
}

/** Closes a descriptor, ignoring errors (it is being given up). */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}

/** Checks that the open descriptor `fd` (opened from `real`) lies under one of `roots` (real paths). */
export function verifyDescriptor(fd: number, real: string, roots: readonly string[], input: unknown): void {
  if (HAS_PROC_FD) {
    let actual: string;
    try {
      actual = readlinkSync(`${PROC_FD}/${fd}`);
    } catch {
      throw escapes(input);
    }
    if (!roots.some((root) => isWithin(actual, root))) throw escapes(input);
    return;
  }
  const opened = fstatSync(fd);
  const named = lstatSync(real);
  if (opened.dev !== named.dev || opened.ino !== named.ino) throw escapes(input);
}

/**
 * Opens `real` (an already checked real path) with `flags` plus O_NOFOLLOW and O_NONBLOCK, and verifies the
 * descriptor against `roots`; the caller closes it.
 */
export function openConfined(real: string, roots: readonly string[], flags: number, input: unknown): number {
  const fd = openSync(real, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    verifyDescriptor(fd, real, roots, input);
  } catch (error) {
    closeQuietly(fd);
    throw error;
  }
  return fd;
}

/** Opens the directory `real` for listing or as a parent, confined to `roots`. */
export function openDirConfined(real: string, roots: readonly string[], input: unknown): number {
  return openConfined(real, roots, constants.O_RDONLY | constants.O_DIRECTORY, input);
}
