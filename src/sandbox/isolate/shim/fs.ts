/**
 * safety.fs (installed by run.ts only with fileRead or fileWrite). File access is a host callback; everything
 * driven by a tool-supplied pattern (grep and searchInFiles regexes, cut's regex delimiter, find's glob) and the
 * line utilities run here, inside the CPU budget, so patterns never run in the host. Globs are picomatch's
 * (bundled into the isolate), matched against entry names, dot files included.
 */
import picomatch from 'picomatch';
import type { WalkResult } from '../../fs/safe-fs.ts';
import { callSync, define, fail } from './bridge.ts';
import type { FsGrant } from './types.ts';

/** A text's lines without their terminators; a final empty line is dropped. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function toRegex(pattern: unknown, caseInsensitive: boolean, what: string): RegExp {
  if (pattern === undefined || pattern === null || pattern === '') {
    throw fail('INVALID_INPUT', what + '-pattern-required', 'safety.fs.' + what + ': a pattern is required');
  }
  if (pattern instanceof RegExp) {
    return new RegExp(pattern.source, caseInsensitive ? 'i' : pattern.flags.replace('g', ''));
  }
  try {
    return new RegExp(String(pattern), caseInsensitive ? 'i' : '');
  } catch (error) {
    throw fail(
      'INVALID_INPUT',
      what + '-invalid-pattern',
      'safety.fs.' + what + ': invalid pattern: ' + (error as Error).message,
    );
  }
}

/** A matcher for file names: `*`, `?`, `[set]`, `[!set]`, `{a,b}`, `**`; dot files are not special. */
export function globMatcher(glob: unknown, what: string): (name: string) => boolean {
  const text = glob === undefined || glob === null || glob === '' ? '*' : String(glob);
  try {
    return picomatch(text, { dot: true, windows: false, posix: true, nonegate: true, noextglob: true });
  } catch (error) {
    throw fail(
      'INVALID_INPUT',
      'find-invalid-glob',
      `safety.fs.${what}: invalid glob: ${text} (${String(error)})`,
    );
  }
}

type Options = Record<string, unknown>;

function optionsOf(value: unknown): Options {
  return value !== null && typeof value === 'object' ? (value as Options) : {};
}

/** A slice bound: negative counts from the end, clamped to [0, size]. */
export function sliceIndex(index: unknown, fallback: number, size: number): number {
  if (index === undefined || index === null) return fallback;
  let value = Math.trunc(Number(index));
  if (Number.isNaN(value)) return fallback;
  if (value < 0) value = size + value;
  if (value < 0) value = 0;
  if (value > size) value = size;
  return value;
}

function readLines(path: unknown): string[] {
  return splitLines(callSync<string>('fs.readText', [path]));
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

function compareText(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

function numericKey(line: string): number {
  const value = Number.parseFloat(line.trim());
  return Number.isNaN(value) ? Infinity : value;
}

function cutLines(path: unknown, options: unknown): string[] {
  const opts = optionsOf(options);
  const wanted = opts.fields;
  if (!Array.isArray(wanted) || wanted.length === 0) {
    throw fail(
      'INVALID_INPUT',
      'cut-fields-required',
      'safety.fs.cut: opts.fields must be a non-empty array',
    );
  }
  const delimiter =
    opts.delimiter === undefined || opts.delimiter === null || opts.delimiter === ''
      ? '\t'
      : String(opts.delimiter);
  let splitter: string | RegExp = delimiter;
  if (opts.regex) {
    try {
      splitter = new RegExp(delimiter);
    } catch (error) {
      throw fail(
        'INVALID_INPUT',
        'cut-invalid-delimiter',
        'safety.fs.cut: invalid delimiter: ' + (error as Error).message,
      );
    }
  }
  const joiner = opts.regex ? '\t' : delimiter;
  const fields = wanted.map(function (field: unknown) {
    return Math.trunc(Number(field)) - 1;
  });
  return readLines(path).map(function (line) {
    const parts = line.split(splitter);
    return fields
      .map(function (index) {
        return index >= 0 && index < parts.length ? parts[index] : '';
      })
      .join(joiner);
  });
}

function sortLines(path: unknown, options: unknown): string[] {
  const opts = optionsOf(options);
  let lines = readLines(path);
  if (opts.unique) lines = Array.from(new Set(lines));
  let compare: (a: string, b: string) => number;
  if (opts.numeric) {
    compare = function (a, b) {
      const x = numericKey(a);
      const y = numericKey(b);
      return x === y ? 0 : x < y ? -1 : 1;
    };
  } else if (opts.caseInsensitive) {
    compare = function (a, b) {
      return compareText(a.toLowerCase(), b.toLowerCase());
    };
  } else {
    compare = compareText;
  }
  const sorted = lines.sort(compare);
  return opts.reverse ? sorted.reverse() : sorted;
}

function walk(dir: unknown, maxDepth: unknown): WalkResult {
  return callSync<WalkResult>('fs.walk', [
    dir === undefined || dir === null ? '.' : dir,
    Number(maxDepth) > 0 ? Number(maxDepth) : 0,
  ]);
}

interface Match {
  path: string;
  line: number;
  text: string;
}

function searchInFiles(dir: unknown, pattern: unknown, options: unknown): Match[] {
  const opts = optionsOf(options);
  const regex = toRegex(pattern, !!opts.caseInsensitive, 'searchInFiles');
  const matches = globMatcher(opts.glob, 'searchInFiles');
  const cap = Math.min(1000, Number(opts.maxMatches) > 0 ? Math.floor(Number(opts.maxMatches)) : 1000);
  const files = walk(dir, opts.maxDepth)
    .entries.filter(function (entry) {
      return entry.type === 'file' && matches(entry.name);
    })
    .map(function (entry) {
      return entry.path;
    });
  const out: Match[] = [];
  const texts = callSync<Array<{ path: string; text: string }>>('fs.readMany', [files]);
  for (let f = 0; f < texts.length && out.length < cap; f++) {
    const file = texts[f] as { path: string; text: string };
    const lines = splitLines(file.text);
    for (let i = 0; i < lines.length && out.length < cap; i++) {
      const line = lines[i] as string;
      if (regex.test(line)) out.push({ path: file.path, line: i + 1, text: line });
    }
  }
  return out;
}

/** The safety.fs object for one call's grant. */
export function makeFs(grant: FsGrant): object {
  const fs = {};
  define(fs, 'workspace', function () {
    return grant.workspace;
  });
  define(fs, 'readRoots', function () {
    return grant.readRoots.slice();
  });
  define(fs, 'readText', function (path: unknown) {
    return callSync('fs.readText', [path]);
  });
  define(fs, 'list', function (dir: unknown) {
    return callSync('fs.list', [dir === undefined || dir === null ? '.' : dir]);
  });
  define(fs, 'exists', function (path: unknown) {
    return callSync('fs.exists', [path]);
  });
  define(fs, 'stat', function (path: unknown) {
    return callSync('fs.stat', [path]);
  });
  define(fs, 'grep', function (pattern: unknown, path: unknown, options: unknown) {
    const opts = optionsOf(options);
    const regex = toRegex(pattern, !!opts.caseInsensitive, 'grep');
    const limit = Number(opts.limit) > 0 ? Math.floor(Number(opts.limit)) : 10000;
    const lines = readLines(path);
    const out: string[] = [];
    for (let i = 0; i < lines.length && out.length < limit; i++) {
      const line = lines[i] as string;
      if (regex.test(line)) out.push(opts.numbered ? i + 1 + ':' + line : line);
    }
    return out;
  });
  define(fs, 'lineCount', function (path: unknown) {
    return readLines(path).length;
  });
  define(fs, 'slice', function (path: unknown, start: unknown, end: unknown) {
    const lines = readLines(path);
    const from = sliceIndex(start, 0, lines.length);
    const to = sliceIndex(end, lines.length, lines.length);
    return from >= to ? [] : lines.slice(from, to);
  });
  define(fs, 'cut', cutLines);
  define(fs, 'sort', sortLines);
  define(fs, 'find', function (dir: unknown, glob: unknown, options: unknown) {
    const opts = optionsOf(options);
    const matches = globMatcher(glob, 'find');
    const type = opts.type === 'file' || opts.type === 'dir' ? opts.type : null;
    return walk(dir, opts.maxDepth)
      .entries.filter(function (entry) {
        return (type === null || entry.type === type) && matches(entry.name);
      })
      .map(function (entry) {
        return entry.path;
      });
  });
  define(fs, 'searchInFiles', searchInFiles);
  define(fs, 'writeText', function (path: unknown, content: unknown) {
    return callSync('fs.writeText', [path, text(content)]);
  });
  define(fs, 'appendText', function (path: unknown, content: unknown) {
    return callSync('fs.appendText', [path, text(content)]);
  });
  define(fs, 'editText', function (path: unknown, oldString: unknown, newString: unknown, options: unknown) {
    if (oldString === undefined || oldString === null || oldString === '') {
      throw fail('INVALID_INPUT', 'old-string-required', 'safety.fs.editText: oldString is required');
    }
    const opts = optionsOf(options);
    return callSync('fs.editText', [path, String(oldString), text(newString), opts.replaceAll === true]);
  });
  define(fs, 'copy', function (from: unknown, to: unknown) {
    return callSync('fs.copy', [from, to]);
  });
  define(fs, 'move', function (from: unknown, to: unknown) {
    return callSync('fs.move', [from, to]);
  });
  define(fs, 'delete', function (path: unknown) {
    return callSync('fs.delete', [path]);
  });
  define(fs, 'deleteDir', function (path: unknown) {
    return callSync('fs.deleteDir', [path]);
  });
  return fs;
}
