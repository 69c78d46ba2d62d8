/** Reading spec files and directories, and watching a directory for changes (a broken file never hides others). */
import { watch, type FSWatcher } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { PortcullisError } from '../errors/index.ts';
import { parseSpec } from './document.ts';
import { findSpecConflicts } from './invariants.ts';
import { createSpecError, type SpecResult } from './spec-error.ts';
import type { SafeToolSpec } from './types.ts';

/** Reads and parses one spec file; a read failure is a SPEC_PARSE error at the document root. */
export async function readSpecFile(file: string): Promise<SpecResult<SafeToolSpec>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return { ok: false, errors: [createSpecError('SPEC_PARSE', '', `cannot read ${file}: ${detail}`)] };
  }
  return parseSpec(text, file);
}

/** Everything found in one directory. */
export interface SpecDirectory {
  dir: string;
  /** Specs that parsed, in file-name order. */
  specs: SafeToolSpec[];
  /** Files that did not parse, with every problem of each. */
  failures: Array<{ file: string; errors: PortcullisError[] }>;
  /** Cross-file problems: duplicate published names, duplicate toolIds. */
  conflicts: PortcullisError[];
}

/** Loads every `*.json` file directly inside `dir` (not recursive; dot-files and temp files are skipped). */
export async function loadSpecDirectory(dir: string): Promise<SpecDirectory> {
  const root = resolve(dir);
  const names = (await readdir(root, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json') && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
  const specs: SafeToolSpec[] = [];
  const failures: SpecDirectory['failures'] = [];
  for (const name of names) {
    const file = join(root, name);
    const result = await readSpecFile(file);
    if (result.ok) specs.push(result.value);
    else failures.push({ file, errors: result.errors });
  }
  return { dir: root, specs, failures, conflicts: findSpecConflicts(specs) };
}

/** The parsed spec in `dir` whose toolId is `toolId`, with its file; undefined when no file holds it. */
export async function findSpecFile(
  dir: string,
  toolId: string,
): Promise<{ file: string; spec: SafeToolSpec } | undefined> {
  let directory: SpecDirectory;
  try {
    directory = await loadSpecDirectory(dir);
  } catch (cause) {
    // A tools directory not created yet holds no spec; any other failure is the caller's to report.
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw cause;
  }
  const spec = directory.specs.find((s) => s.toolId === toolId);
  return spec === undefined || spec.source === null ? undefined : { file: spec.source, spec };
}

/** Options of the directory watcher. */
export interface WatchOptions {
  /** Quiet time after the last file event before reloading (default 150 ms). */
  debounceMs?: number;
  /** Called when a reload itself fails (the directory vanished, for example). */
  onError?: (error: unknown) => void;
}

/**
 * Watches `dir` and calls `onChange` with a fresh load after each burst of changes (debounced). Returns a
 * function that stops watching; no callback runs after it resolves.
 */
export function watchSpecDirectory(
  dir: string,
  onChange: (directory: SpecDirectory) => void | Promise<void>,
  options: WatchOptions = {},
): () => Promise<void> {
  const debounceMs = options.debounceMs ?? 150;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let running: Promise<void> = Promise.resolve();
  const reload = (): void => {
    timer = undefined;
    running = running.then(async () => {
      if (closed) return;
      try {
        const directory = await loadSpecDirectory(dir);
        if (!closed) await onChange(directory);
      } catch (error) {
        options.onError?.(error);
      }
    });
  };
  const watcher: FSWatcher = watch(dir, { persistent: false }, (_event, name) => {
    if (closed) return;
    if (name !== null && (!name.endsWith('.json') || name.startsWith('.'))) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(reload, debounceMs);
  });
  watcher.on('error', (error) => options.onError?.(error));
  return async () => {
    closed = true;
    if (timer !== undefined) clearTimeout(timer);
    watcher.close();
    await running;
  };
}
