/**
 * The host side of safety.fs (docs/rules/sandbox.md#r-fs-3-descriptor-checked-io): the primitive file operations, each
 * gated by the tool's grants and confined by fs-scope. Pattern work (grep, cut, find globs, searchInFiles
 * regexes, sort) happens inside the isolate on the text these primitives return, so tool-supplied patterns
 * never run in the host. Every file and directory is opened once, by descriptor, and the descriptor is checked
 * (fd-open.ts): a symlink swapped in after the path check cannot redirect the operation.
 * Longer than most files on purpose: every primitive is a few lines on the same grant check and descriptor
 * discipline, and seeing them side by side is how a reviewer checks that none skips it.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { PortcullisError } from '../../errors/index.ts';
import {
  codeOf,
  inParent,
  ioError,
  listDir,
  openForWrite,
  prepareParent,
  readRegularFile,
  refuseHardLink,
} from './confined-io.ts';
import { closeQuietly, openConfined } from './fd-open.ts';
import { checkRead, checkWrite, displayPath, realPathOf } from './fs-scope.ts';
import type { CheckedPath, FsScope } from './fs-scope.ts';

/** Which groups of safety.fs a tool may use. */
export interface FsGrants {
  read: boolean;
  write: boolean;
  /** move, delete and deleteDir (R-FS-1: gated on the spec's `destructive` flag). */
  destructive: boolean;
}

/** Size limits of the host-side file operations. */
export interface SafeFsLimits {
  /** Largest file readText returns (default 10 MiB). */
  maxReadBytes: number;
  /** Most entries one walk returns (default 20 000). */
  maxWalkEntries: number;
  /** Most bytes readMany returns in total (default 32 MiB). */
  maxReadManyBytes: number;
}

/** Metadata of one path. */
export interface FileStat {
  size: number;
  /** Modification time in epoch milliseconds. */
  mtime: number;
  directory: boolean;
  file: boolean;
}

/** One entry of a directory walk. */
export interface WalkEntry {
  path: string;
  name: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  depth: number;
}

/** The outcome of a walk; `truncated` when the entry cap was reached. */
export interface WalkResult {
  entries: WalkEntry[];
  truncated: boolean;
}

/** The host operations behind safety.fs. Every method throws PortcullisError. */
export interface SafeFs {
  workspace(): string;
  readRoots(): string[];
  readText(file: unknown): string;
  list(dir: unknown): string[];
  exists(file: unknown): boolean;
  stat(file: unknown): FileStat;
  walk(dir: unknown, maxDepth: number): WalkResult;
  readMany(files: readonly unknown[]): Array<{ path: string; text: string }>;
  writeText(file: unknown, content: string): string;
  appendText(file: unknown, content: string): string;
  editText(file: unknown, oldString: string, newString: string, replaceAll: boolean): number;
  copy(from: unknown, to: unknown): string;
  move(from: unknown, to: unknown): string;
  delete(file: unknown): boolean;
  deleteDir(dir: unknown): number;
}

const COPY_CHUNK_BYTES = 64 * 1024;

const DEFAULT_LIMITS: SafeFsLimits = {
  maxReadBytes: 10 * 1024 * 1024,
  maxWalkEntries: 20_000,
  maxReadManyBytes: 32 * 1024 * 1024,
};

/** Builds the host side of safety.fs for one scope and set of grants. */
export function createSafeFs(scope: FsScope, grants: FsGrants, limits: Partial<SafeFsLimits> = {}): SafeFs {
  const max = { ...DEFAULT_LIMITS, ...limits };
  const readRoots = scope.readRoots.map((root) => realPathOf(root) ?? root);
  const workspaceRoots = [realPathOf(scope.workspace) ?? scope.workspace];

  const requireRead = (operation: string): void => {
    if (!grants.read) {
      throw new PortcullisError('SECURITY', `safety.fs.${operation} needs fileRead`, {
        reason: 'file-read-not-allowed',
      });
    }
  };
  const requireWrite = (operation: string): void => {
    if (!grants.write) {
      throw new PortcullisError('SECURITY', `safety.fs.${operation} needs fileWrite`, {
        reason: 'file-write-not-allowed',
      });
    }
  };
  const requireDestructive = (operation: string): void => {
    requireWrite(operation);
    if (!grants.destructive) {
      throw new PortcullisError('SECURITY', `safety.fs.${operation} needs destructive: true in the spec`, {
        reason: 'destructive-not-allowed',
      });
    }
  };

  const guarded = <T>(operation: string, input: unknown, body: () => T): T => {
    try {
      return body();
    } catch (error) {
      throw ioError(operation, input, error);
    }
  };

  const writeFile = (target: CheckedPath, input: unknown, content: string, append: boolean): void => {
    const fd = openForWrite(scope.workspace, workspaceRoots, target, input, append);
    try {
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
  };

  const readChecked = (operation: string, input: unknown): { checked: CheckedPath; text: string } => {
    const checked = checkRead(scope, input);
    return { checked, text: readRegularFile(checked.real, readRoots, operation, input, max.maxReadBytes) };
  };

  const countEntries = (dir: string): number => {
    let count = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      count += 1;
      if (entry.isDirectory()) count += countEntries(path.join(dir, entry.name));
    }
    return count;
  };

  return {
    workspace: () => scope.workspace,
    readRoots: () => [...scope.readRoots],

    readText: (file) => {
      requireRead('readText');
      return guarded('readText', file, () => readChecked('readText', file).text);
    },

    list: (dir) => {
      requireRead('list');
      const input = dir === undefined || dir === null || dir === '' ? '.' : dir;
      return guarded('list', input, () => {
        const checked = checkRead(scope, input);
        const entries = listDir(readRoots, checked.real, input, 'list');
        if (entries === null) return [];
        return entries
          .map((entry) => entry.name)
          .sort()
          .map((name) => displayPath(scope, path.join(checked.candidate, name)));
      });
    },

    exists: (file) => {
      requireRead('exists');
      try {
        const checked = checkRead(scope, file);
        closeQuietly(openConfined(checked.real, readRoots, constants.O_RDONLY, file));
        return true;
      } catch {
        // Missing, outside the scope or unreadable all answer "no": the tool learns nothing more than that.
        return false;
      }
    },

    stat: (file) => {
      requireRead('stat');
      return guarded('stat', file, () => {
        const fd = openConfined(checkRead(scope, file).real, readRoots, constants.O_RDONLY, file);
        try {
          const info = fstatSync(fd);
          return { size: info.size, mtime: info.mtimeMs, directory: info.isDirectory(), file: info.isFile() };
        } finally {
          closeQuietly(fd);
        }
      });
    },

    walk: (dir, maxDepth) => {
      requireRead('find');
      const input = dir === undefined || dir === null || dir === '' ? '.' : dir;
      return guarded('find', input, () => {
        const root = checkRead(scope, input);
        if (listDir(readRoots, root.real, input, 'find') === null) {
          throw new PortcullisError('HELPER_RUNTIME', `safety.fs.find: ENOENT: ${String(input)}`, {
            reason: 'not-found',
          });
        }
        const limit = Number.isFinite(maxDepth) && maxDepth > 0 ? maxDepth : Number.POSITIVE_INFINITY;
        const entries: WalkEntry[] = [];
        // Breadth-first, never following symlinks, so the walk cannot leave the checked root.
        const queue: Array<{ real: string; candidate: string; depth: number }> = [
          { real: root.real, candidate: root.candidate, depth: 0 },
        ];
        while (queue.length > 0) {
          const current = queue.shift() as { real: string; candidate: string; depth: number };
          let children;
          try {
            children = listDir(readRoots, current.real, current.candidate, 'find');
          } catch {
            // A directory that vanished or cannot be read mid-walk is skipped, as `find` does.
            continue;
          }
          if (children === null) continue;
          children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
          for (const child of children) {
            if (entries.length >= max.maxWalkEntries) return { entries, truncated: true };
            const candidate = path.join(current.candidate, child.name);
            const type = child.isSymbolicLink()
              ? 'symlink'
              : child.isDirectory()
                ? 'dir'
                : child.isFile()
                  ? 'file'
                  : 'other';
            const depth = current.depth + 1;
            entries.push({ path: displayPath(scope, candidate), name: child.name, type, depth });
            if (type === 'dir' && depth < limit) {
              queue.push({ real: path.join(current.real, child.name), candidate, depth });
            }
          }
        }
        return { entries, truncated: false };
      });
    },

    readMany: (files) => {
      requireRead('searchInFiles');
      const out: Array<{ path: string; text: string }> = [];
      let total = 0;
      for (const file of files) {
        let text: string;
        let shown: string;
        try {
          const checked = checkRead(scope, file);
          text = readRegularFile(checked.real, readRoots, 'searchInFiles', file, max.maxReadBytes);
          shown = displayPath(scope, checked.candidate);
        } catch (error) {
          if (
            error instanceof PortcullisError &&
            error.code === 'SECURITY' &&
            error.reason !== 'not-a-regular-file'
          ) {
            throw error;
          }
          continue;
        }
        if (total + text.length > max.maxReadManyBytes) break;
        // Binary files (a NUL in the first 8 KiB) are not searched.
        if (text.slice(0, 8192).includes('\0')) continue;
        total += text.length;
        out.push({ path: shown, text });
      }
      return out;
    },

    writeText: (file, content) => {
      requireWrite('writeText');
      return guarded('writeText', file, () => {
        const target = checkWrite(scope, file);
        writeFile(target, file, content, false);
        return displayPath(scope, target.candidate);
      });
    },

    appendText: (file, content) => {
      requireWrite('appendText');
      return guarded('appendText', file, () => {
        const target = checkWrite(scope, file);
        writeFile(target, file, content, true);
        return displayPath(scope, target.candidate);
      });
    },

    editText: (file, oldString, newString, replaceAll) => {
      requireRead('editText');
      requireWrite('editText');
      if (oldString === '') {
        throw new PortcullisError('INVALID_INPUT', 'safety.fs.editText: oldString is required', {
          reason: 'old-string-required',
        });
      }
      return guarded('editText', file, () => {
        const target = checkWrite(scope, file);
        const { text } = readChecked('editText', file);
        const pieces = text.split(oldString);
        const matches = pieces.length - 1;
        if (matches === 0) {
          throw new PortcullisError('INVALID_INPUT', 'safety.fs.editText: oldString was not found', {
            reason: 'edit-no-match',
          });
        }
        if (matches > 1 && !replaceAll) {
          throw new PortcullisError(
            'INVALID_INPUT',
            `safety.fs.editText: oldString matches ${matches} times; pass replaceAll or a longer oldString`,
            { reason: 'edit-ambiguous' },
          );
        }
        writeFile(target, file, pieces.join(newString), false);
        return matches;
      });
    },

    copy: (from, to) => {
      requireRead('copy');
      requireWrite('copy');
      return guarded('copy', from, () => {
        const source = checkRead(scope, from);
        const input = openConfined(source.real, readRoots, constants.O_RDONLY, from);
        try {
          const info = fstatSync(input);
          refuseHardLink(info, 'copy', from);
          if (!info.isFile()) {
            throw new PortcullisError(
              'INVALID_INPUT',
              `safety.fs.copy: not a regular file: ${String(from)}`,
              {
                reason: 'not-a-file',
              },
            );
          }
          const target = checkWrite(scope, to);
          const output = openForWrite(scope.workspace, workspaceRoots, target, to, false);
          try {
            const chunk = Buffer.allocUnsafe(COPY_CHUNK_BYTES);
            for (let read = readSync(input, chunk); read > 0; read = readSync(input, chunk)) {
              writeSync(output, chunk, 0, read);
            }
          } finally {
            closeSync(output);
          }
          return displayPath(scope, target.candidate);
        } finally {
          closeQuietly(input);
        }
      });
    },

    move: (from, to) => {
      requireDestructive('move');
      return guarded('move', from, () => {
        const source = checkWrite(scope, from);
        const target = checkWrite(scope, to);
        prepareParent(scope.workspace, target, to);
        inParent(workspaceRoots, source, from, (sourceEntry) => {
          lstatSync(sourceEntry);
          inParent(workspaceRoots, target, to, (targetEntry) => renameSync(sourceEntry, targetEntry));
        });
        return displayPath(scope, target.candidate);
      });
    },

    delete: (file) => {
      requireDestructive('delete');
      return guarded('delete', file, () => {
        const target = checkWrite(scope, file);
        return inParent(workspaceRoots, target, file, (entry) => {
          let info;
          try {
            info = lstatSync(entry);
          } catch (error) {
            if (codeOf(error) === 'ENOENT') return false;
            throw error;
          }
          if (info.isDirectory()) {
            throw new PortcullisError(
              'INVALID_INPUT',
              `safety.fs.delete: is a directory (use deleteDir): ${String(file)}`,
              {
                reason: 'is-a-directory',
              },
            );
          }
          unlinkSync(entry);
          return true;
        });
      });
    },

    deleteDir: (dir) => {
      requireDestructive('deleteDir');
      return guarded('deleteDir', dir, () => {
        const target = checkWrite(scope, dir);
        const workspaceReal = realPathOf(scope.workspace) ?? scope.workspace;
        if (target.real === workspaceReal) {
          throw new PortcullisError(
            'SECURITY',
            'safety.fs.deleteDir: refusing to delete the workspace root',
            {
              reason: 'workspace-root',
            },
          );
        }
        return inParent(workspaceRoots, target, dir, (entry) => {
          let info;
          try {
            info = lstatSync(entry);
          } catch (error) {
            if (codeOf(error) === 'ENOENT') return 0;
            throw error;
          }
          if (!info.isDirectory()) {
            throw new PortcullisError(
              'INVALID_INPUT',
              `safety.fs.deleteDir: not a directory: ${String(dir)}`,
              {
                reason: 'not-a-directory',
              },
            );
          }
          const count = countEntries(entry) + 1;
          // rmSync removes symlinks themselves, never their targets.
          rmSync(entry, { recursive: true });
          return count;
        });
      });
    },
  };
}
