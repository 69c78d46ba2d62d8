/**
 * Nesting limits of safety.parser, checked before or while a document is parsed so that the parser's work
 * stays bounded: the YAML library recurses per level (and its cost grows faster than the depth), and
 * htmlparser2's open-element stack costs more per element the deeper it is. Each check is one linear pass.
 */
import { PortcullisError } from '../../errors/index.ts';

/** The deepest YAML document safety.parser.yaml accepts (block levels, `- ` chains and flow brackets). */
export const MAX_YAML_NESTING = 256;

/** The deepest element nesting safety.parser.xml and safety.parser.html accept. */
export const MAX_MARKUP_NESTING = 1024;

/** The error a document deeper than its limit gets. */
export function nestingTooDeep(parser: string, limit: number): PortcullisError {
  return new PortcullisError(
    'INVALID_INPUT',
    `safety.parser.${parser}: the document is nested deeper than ${limit} levels`,
    { reason: 'nesting-too-deep' },
  );
}

const SPACE = 0x20;
const NEWLINE = 0x0a;

/**
 * Refuses a YAML text whose nesting may exceed `limit`. The estimate never undercounts: block levels are the
 * distinct indentation columns still open, plus the `- `/`? `/`: ` indicators that open a level on the same
 * line, plus open flow brackets (counted anywhere, so brackets inside scalars can only make it stricter).
 */
export function checkYamlNesting(text: string, limit = MAX_YAML_NESTING): void {
  const indents: number[] = [];
  let flow = 0;
  let index = 0;
  while (index < text.length) {
    let lineEnd = text.indexOf('\n', index);
    if (lineEnd < 0) lineEnd = text.length;
    let cursor = index;
    while (cursor < lineEnd && text.charCodeAt(cursor) === SPACE) cursor += 1;
    const first = text[cursor];
    if (cursor < lineEnd && first !== '#' && first !== '\r') {
      const indent = cursor - index;
      while (indents.length > 0 && (indents[indents.length - 1] as number) > indent) indents.pop();
      if (indents.length === 0 || (indents[indents.length - 1] as number) < indent) indents.push(indent);
      let chain = 0;
      for (;;) {
        const char = text[cursor];
        const next = cursor + 1 < lineEnd ? text.charCodeAt(cursor + 1) : NEWLINE;
        if ((char === '-' || char === '?' || char === ':') && (next === SPACE || next === NEWLINE)) {
          chain += 1;
          cursor += 1;
          while (cursor < lineEnd && text.charCodeAt(cursor) === SPACE) cursor += 1;
          continue;
        }
        break;
      }
      let peak = flow;
      for (; cursor < lineEnd; cursor += 1) {
        const char = text[cursor];
        if (char === '[' || char === '{') {
          flow += 1;
          if (flow > peak) peak = flow;
        } else if ((char === ']' || char === '}') && flow > 0) {
          flow -= 1;
        }
      }
      if (indents.length + chain + peak > limit) throw nestingTooDeep('yaml', limit);
    }
    index = lineEnd + 1;
  }
}

function skipPast(text: string, from: number, terminator: string): number {
  const end = text.indexOf(terminator, from);
  return end < 0 ? text.length : end + terminator.length;
}

// The index just past the `>` that ends the tag starting at `from`, skipping quoted attribute values.
function tagEnd(text: string, from: number): number {
  let quote: string | null = null;
  for (let cursor = from; cursor < text.length; cursor += 1) {
    const char = text[cursor];
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '>') {
      return cursor + 1;
    }
  }
  return text.length;
}

/**
 * Refuses an XML text whose element nesting may exceed `limit`: start tags that are not self-closed open a
 * level, end tags close one; comments, CDATA sections and processing instructions are skipped.
 */
export function checkXmlNesting(text: string, limit = MAX_MARKUP_NESTING): void {
  let depth = 0;
  let cursor = text.indexOf('<');
  while (cursor >= 0 && cursor < text.length) {
    if (text.startsWith('<!--', cursor)) cursor = skipPast(text, cursor + 4, '-->');
    else if (text.startsWith('<![CDATA[', cursor)) cursor = skipPast(text, cursor + 9, ']]>');
    else if (text.startsWith('<?', cursor)) cursor = skipPast(text, cursor + 2, '?>');
    else if (text.startsWith('</', cursor)) {
      if (depth > 0) depth -= 1;
      cursor = tagEnd(text, cursor + 2);
    } else {
      const end = tagEnd(text, cursor + 1);
      const named = /[A-Za-z_:]/.test(text[cursor + 1] ?? '');
      if (named && text[end - 2] !== '/') {
        depth += 1;
        if (depth > limit) throw nestingTooDeep('xml', limit);
      }
      cursor = end;
    }
    cursor = text.indexOf('<', cursor);
  }
}
