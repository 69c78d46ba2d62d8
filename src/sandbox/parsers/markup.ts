/**
 * safety.parser.html and safety.parser.xml (docs/security.md, "Parsers hand on safe output"): htmlparser2 callbacks build plain
 * trees that cross into the isolate as copied data, never parser objects. XML refuses any DTD, so there are no
 * external entities and no entity expansion.
 */
import { Parser } from 'htmlparser2';
import { PortcullisError } from '../../errors/index.ts';
import { checkXmlNesting, MAX_MARKUP_NESTING, nestingTooDeep } from './nesting.ts';

/** One node of a parsed HTML document. */
export type HtmlNode =
  | { type: 'element'; tag: string; attrs: Record<string, string>; children: HtmlNode[] }
  | { type: 'text'; text: string }
  /** Raw content of script and style elements (not part of the text). */
  | { type: 'data'; text: string };

/** A parsed HTML document: its top-level nodes. */
export interface HtmlDocument {
  type: 'document';
  children: HtmlNode[];
}

/** One element of a parsed XML document (the reference shape). */
export interface XmlElement {
  tag: string;
  attrs: Record<string, string>;
  /** The element's own text and CDATA, concatenated and trimmed. */
  text: string;
  children: XmlElement[];
}

/** Deeper elements are flattened into their deepest allowed ancestor (keeps copies and recursion bounded). */
export const MAX_MARKUP_DEPTH = 256;

const RAW_TEXT_TAGS = new Set(['script', 'style']);

function plainAttributes(attribs: Record<string, string>): Record<string, string> {
  // fromEntries defines own properties, so an attribute named __proto__ stays data.
  return Object.fromEntries(Object.entries(attribs));
}

/**
 * Parses HTML leniently into a plain tree; comments and doctypes are dropped. A document whose open elements
 * nest deeper than MAX_MARKUP_NESTING is refused as soon as the parser reaches that depth (the parser's own
 * cost per element grows with the depth, so it must stop early).
 */
export function parseHtml(input: string): HtmlDocument {
  const root: HtmlDocument = { type: 'document', children: [] };
  const stack: Array<{ tag: string; children: HtmlNode[] }> = [{ tag: '#document', children: root.children }];
  let overflow = 0;
  // Mirrors the parser's open-element stack: it reports every push and every pop, implied ones included.
  let open = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        open += 1;
        if (open > MAX_MARKUP_NESTING) throw nestingTooDeep('html', MAX_MARKUP_NESTING);
        if (stack.length > MAX_MARKUP_DEPTH) {
          overflow += 1;
          return;
        }
        const element: HtmlNode = {
          type: 'element',
          tag: name,
          attrs: plainAttributes(attribs),
          children: [],
        };
        (stack[stack.length - 1] as { children: HtmlNode[] }).children.push(element);
        stack.push({ tag: name, children: element.children });
      },
      onclosetag() {
        if (open > 0) open -= 1;
        if (overflow > 0) overflow -= 1;
        else if (stack.length > 1) stack.pop();
      },
      ontext(text) {
        const current = stack[stack.length - 1] as { tag: string; children: HtmlNode[] };
        const type = RAW_TEXT_TAGS.has(current.tag) ? 'data' : 'text';
        const last = current.children[current.children.length - 1];
        if (last !== undefined && last.type === type) last.text += text;
        else current.children.push({ type, text });
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(input);
  return root;
}

/**
 * Parses XML into `{tag, attrs, text, children}`; any DOCTYPE or ENTITY declaration is refused, and so is a
 * document nested deeper than MAX_MARKUP_NESTING (checked before parsing, and again while parsing).
 */
export function parseXml(input: string): XmlElement {
  const refuse = (): never => {
    throw new PortcullisError('SECURITY', 'safety.parser.xml: DTDs and entity declarations are not allowed', {
      reason: 'xml-dtd-forbidden',
    });
  };
  if (/<!DOCTYPE/i.test(input) || /<!ENTITY/i.test(input)) refuse();
  checkXmlNesting(input);
  let open = 0;
  type Building = XmlElement & { parts: string[] };
  const stack: Building[] = [];
  let root: Building | null = null;
  let overflow = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        open += 1;
        if (open > MAX_MARKUP_NESTING) throw nestingTooDeep('xml', MAX_MARKUP_NESTING);
        if (stack.length >= MAX_MARKUP_DEPTH) {
          overflow += 1;
          return;
        }
        const element: Building = {
          tag: name,
          attrs: plainAttributes(attribs),
          text: '',
          children: [],
          parts: [],
        };
        const parent = stack[stack.length - 1];
        if (parent !== undefined) parent.children.push(element);
        else if (root === null) root = element;
        else return;
        stack.push(element);
      },
      onclosetag() {
        if (open > 0) open -= 1;
        if (overflow > 0) {
          overflow -= 1;
          return;
        }
        const element = stack.pop();
        if (element !== undefined) element.text = element.parts.join('').trim();
      },
      ontext(text) {
        stack[stack.length - 1]?.parts.push(text);
      },
      onprocessinginstruction(name) {
        const lower = name.toLowerCase();
        if (lower.startsWith('!doctype') || lower.startsWith('!entity')) refuse();
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
  );
  parser.end(input);
  if (root === null) {
    throw new PortcullisError('HELPER_RUNTIME', 'safety.parser.xml: the document has no root element', {
      reason: 'parse-failed',
    });
  }
  const strip = (element: Building): XmlElement => ({
    tag: element.tag,
    attrs: element.attrs,
    text: element.text,
    children: element.children.map((child) => strip(child as Building)),
  });
  return strip(root);
}
