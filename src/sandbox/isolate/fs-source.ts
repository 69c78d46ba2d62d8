/**
 * In-isolate JavaScript, part 6: safety.fs (installed only with fileRead or fileWrite). File access is a host
 * callback; everything driven by a tool-supplied pattern (grep and searchInFiles regexes, cut's regex delimiter,
 * find's glob) and the line utilities run here, inside the CPU budget, so patterns never run in the host.
 */
export const FS_SOURCE = String.raw`
function splitLines(text) {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function toRegex(pattern, caseInsensitive, what) {
  if (pattern === undefined || pattern === null || pattern === '') {
    throw fail('INVALID_INPUT', what + '-pattern-required', 'safety.fs.' + what + ': a pattern is required');
  }
  if (pattern instanceof RegExp) return new RegExp(pattern.source, caseInsensitive ? 'i' : pattern.flags.replace('g', ''));
  try {
    return new RegExp(String(pattern), caseInsensitive ? 'i' : '');
  } catch (error) {
    throw fail('INVALID_INPUT', what + '-invalid-pattern', 'safety.fs.' + what + ': invalid pattern: ' + error.message);
  }
}

// Glob on a file name: * ? [set] [!set] {a,b}; ** also crosses separators.
function globToRegex(glob) {
  let out = '^';
  let inGroup = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        i++;
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let set = glob.slice(i + 1, end);
      if (set[0] === '!') set = '^' + set.slice(1);
      out += '[' + set.replace(/\\/g, '\\\\') + ']';
      i = end;
    } else if (c === '{') {
      inGroup++;
      out += '(?:';
    } else if (c === '}' && inGroup > 0) {
      inGroup--;
      out += ')';
    } else if (c === ',' && inGroup > 0) {
      out += '|';
    } else if (c === '\\' && i + 1 < glob.length) {
      i++;
      out += '\\' + glob[i];
    } else {
      out += /[.+^$()|\]\\{}]/.test(c) ? '\\' + c : c;
    }
  }
  while (inGroup-- > 0) out += ')';
  try {
    return new RegExp(out + '$');
  } catch (error) {
    throw fail('INVALID_INPUT', 'find-invalid-glob', 'safety.fs.find: invalid glob: ' + glob);
  }
}

function optionsOf(value) {
  return value !== null && typeof value === 'object' ? value : {};
}

function sliceIndex(index, fallback, size) {
  if (index === undefined || index === null) return fallback;
  let value = Math.trunc(Number(index));
  if (value !== value) return fallback;
  if (value < 0) value = size + value;
  if (value < 0) value = 0;
  if (value > size) value = size;
  return value;
}

function makeFs(grant) {
  const fs = {};
  define(fs, 'workspace', function () {
    return grant.workspace;
  });
  define(fs, 'readRoots', function () {
    return grant.readRoots.slice();
  });
  define(fs, 'readText', function (path) {
    return callSync('fs.readText', [path]);
  });
  define(fs, 'list', function (dir) {
    return callSync('fs.list', [dir === undefined || dir === null ? '.' : dir]);
  });
  define(fs, 'exists', function (path) {
    return callSync('fs.exists', [path]);
  });
  define(fs, 'stat', function (path) {
    return callSync('fs.stat', [path]);
  });
  define(fs, 'grep', function (pattern, path, options) {
    const opts = optionsOf(options);
    const regex = toRegex(pattern, !!opts.caseInsensitive, 'grep');
    const limit = Number(opts.limit) > 0 ? Math.floor(Number(opts.limit)) : 10000;
    const lines = splitLines(callSync('fs.readText', [path]));
    const out = [];
    for (let i = 0; i < lines.length && out.length < limit; i++) {
      if (regex.test(lines[i])) out.push(opts.numbered ? i + 1 + ':' + lines[i] : lines[i]);
    }
    return out;
  });
  define(fs, 'lineCount', function (path) {
    return splitLines(callSync('fs.readText', [path])).length;
  });
  define(fs, 'slice', function (path, start, end) {
    const lines = splitLines(callSync('fs.readText', [path]));
    const from = sliceIndex(start, 0, lines.length);
    const to = sliceIndex(end, lines.length, lines.length);
    return from >= to ? [] : lines.slice(from, to);
  });
  define(fs, 'cut', function (path, options) {
    const opts = optionsOf(options);
    if (!Array.isArray(opts.fields) || opts.fields.length === 0) {
      throw fail('INVALID_INPUT', 'cut-fields-required', 'safety.fs.cut: opts.fields must be a non-empty array');
    }
    const delimiter = opts.delimiter === undefined || opts.delimiter === null || opts.delimiter === '' ? '\t' : String(opts.delimiter);
    let splitter = delimiter;
    if (opts.regex) {
      try {
        splitter = new RegExp(delimiter);
      } catch (error) {
        throw fail('INVALID_INPUT', 'cut-invalid-delimiter', 'safety.fs.cut: invalid delimiter: ' + error.message);
      }
    }
    const joiner = opts.regex ? '\t' : delimiter;
    const fields = opts.fields.map(function (field) {
      return Math.trunc(Number(field)) - 1;
    });
    return splitLines(callSync('fs.readText', [path])).map(function (line) {
      const parts = line.split(splitter);
      return fields
        .map(function (index) {
          return index >= 0 && index < parts.length ? parts[index] : '';
        })
        .join(joiner);
    });
  });
  define(fs, 'sort', function (path, options) {
    const opts = optionsOf(options);
    let lines = splitLines(callSync('fs.readText', [path]));
    if (opts.unique) lines = Array.from(new Set(lines));
    let compare;
    if (opts.numeric) {
      const key = function (line) {
        const value = Number.parseFloat(line.trim());
        return value === value ? value : Infinity;
      };
      compare = function (a, b) {
        const x = key(a);
        const y = key(b);
        return x === y ? 0 : x < y ? -1 : 1;
      };
    } else if (opts.caseInsensitive) {
      compare = function (a, b) {
        const x = a.toLowerCase();
        const y = b.toLowerCase();
        return x === y ? 0 : x < y ? -1 : 1;
      };
    } else {
      compare = function (a, b) {
        return a === b ? 0 : a < b ? -1 : 1;
      };
    }
    const sorted = lines.sort(compare);
    return opts.reverse ? sorted.reverse() : sorted;
  });
  const walk = function (dir, maxDepth) {
    return callSync('fs.walk', [dir === undefined || dir === null ? '.' : dir, Number(maxDepth) > 0 ? Number(maxDepth) : 0]);
  };
  define(fs, 'find', function (dir, glob, options) {
    const opts = optionsOf(options);
    const matcher = globToRegex(glob === undefined || glob === null || glob === '' ? '*' : String(glob));
    const type = opts.type === 'file' || opts.type === 'dir' ? opts.type : null;
    return walk(dir, opts.maxDepth)
      .entries.filter(function (entry) {
        return (type === null || entry.type === type) && matcher.test(entry.name);
      })
      .map(function (entry) {
        return entry.path;
      });
  });
  define(fs, 'searchInFiles', function (dir, pattern, options) {
    const opts = optionsOf(options);
    const regex = toRegex(pattern, !!opts.caseInsensitive, 'searchInFiles');
    const matcher = globToRegex(opts.glob === undefined || opts.glob === null || opts.glob === '' ? '*' : String(opts.glob));
    const cap = Math.min(1000, Number(opts.maxMatches) > 0 ? Math.floor(Number(opts.maxMatches)) : 1000);
    const files = walk(dir, opts.maxDepth)
      .entries.filter(function (entry) {
        return entry.type === 'file' && matcher.test(entry.name);
      })
      .map(function (entry) {
        return entry.path;
      });
    const out = [];
    const texts = callSync('fs.readMany', [files]);
    for (let f = 0; f < texts.length && out.length < cap; f++) {
      const lines = splitLines(texts[f].text);
      for (let i = 0; i < lines.length && out.length < cap; i++) {
        if (regex.test(lines[i])) out.push({ path: texts[f].path, line: i + 1, text: lines[i] });
      }
    }
    return out;
  });
  define(fs, 'writeText', function (path, content) {
    return callSync('fs.writeText', [path, content === undefined || content === null ? '' : String(content)]);
  });
  define(fs, 'appendText', function (path, content) {
    return callSync('fs.appendText', [path, content === undefined || content === null ? '' : String(content)]);
  });
  define(fs, 'editText', function (path, oldString, newString, options) {
    if (oldString === undefined || oldString === null || oldString === '') {
      throw fail('INVALID_INPUT', 'old-string-required', 'safety.fs.editText: oldString is required');
    }
    const opts = optionsOf(options);
    return callSync('fs.editText', [
      path,
      String(oldString),
      newString === undefined || newString === null ? '' : String(newString),
      opts.replaceAll === true,
    ]);
  });
  define(fs, 'copy', function (from, to) {
    return callSync('fs.copy', [from, to]);
  });
  define(fs, 'move', function (from, to) {
    return callSync('fs.move', [from, to]);
  });
  define(fs, 'delete', function (path) {
    return callSync('fs.delete', [path]);
  });
  define(fs, 'deleteDir', function (path) {
    return callSync('fs.deleteDir', [path]);
  });
  return fs;
}
`;
