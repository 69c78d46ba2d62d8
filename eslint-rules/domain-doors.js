// A domain's files are reached from other domains only through the domain's door, src/<domain>/index.ts.
import path from 'node:path';

const SRC = `${path.sep}src${path.sep}`;

/** The domain folder a file under src/ belongs to ('' for src/main.ts), or undefined outside src/. */
function domainOf(file) {
  const at = file.lastIndexOf(SRC);
  if (at < 0) return undefined;
  const rest = file.slice(at + SRC.length).split(path.sep);
  return { root: file.slice(0, at + SRC.length), domain: rest.length > 1 ? rest[0] : '' };
}

/** @type {import('eslint').Rule.RuleModule} */
export const domainDoors = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports of another domain’s files other than its index.ts door.' },
    messages: {
      deep: 'Import "{{target}}" through its door src/{{domain}}/index.ts: other domains only use what a door exports.',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = domainOf(file);
    // Tests may reach into what they test; the rule guards the code that ships.
    if (from === undefined || /\.test\.ts$/.test(file) || file.includes(`${path.sep}test${path.sep}`))
      return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source);
      if (!target.startsWith(from.root)) return;
      const parts = target.slice(from.root.length).split(path.sep);
      if (parts.length < 2) return;
      const [domain] = parts;
      if (domain === from.domain) return;
      if (parts.length === 2 && parts[1] === 'index.ts') return;
      context.report({ node, messageId: 'deep', data: { target: source, domain } });
    };
    const fromSource = (node) => check(node.source, node.source?.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) =>
        check(node.source, node.source.type === 'Literal' ? node.source.value : undefined),
    };
  },
};
