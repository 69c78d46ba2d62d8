/**
 * CSS selectors over the in-isolate HTML tree: css-select (bundled into the isolate) with an adapter for the
 * tree's own nodes, plus the jsoup pseudo-classes catalog tools use (`:contains` and `:containsOwn`, both
 * case-insensitive). Selectors are compiled once and cached; a selector that does not parse is an
 * INVALID_INPUT helper error with reason `invalid-selector`.
 */
import { compile, selectAll } from 'css-select';
import type { Options } from 'css-select';
import { fail } from '../bridge.ts';
import type { HtmlElement, HtmlNode } from './dom.ts';

type Adapter = NonNullable<Options<HtmlNode, HtmlElement>['adapter']>;
type CompiledQuery = (node: HtmlNode) => boolean;

function isElement(node: HtmlNode): node is HtmlElement {
  return 'tag' in node && node.tag !== '#document';
}

function parentOf(node: HtmlNode): HtmlElement | null {
  return 'tag' in node ? node._parent : null;
}

function textOf(node: HtmlNode): string {
  return 'tag' in node ? node.text() : node.type === 'text' ? node.text : '';
}

const adapter: Adapter = {
  isTag: isElement,
  getAttributeValue: (element, name) => (element.hasAttr(name) ? element.attr(name) : undefined),
  getChildren: (node) => ('tag' in node ? node._nodes : []),
  getName: (element) => element.tag,
  getParent: (element) => element._parent,
  getSiblings: (node) => {
    const parent = parentOf(node);
    return parent === null ? [node] : parent._nodes;
  },
  getText: textOf,
  hasAttrib: (element, name) => element.hasAttr(name),
  removeSubsets: (nodes) => {
    const kept = new Set(nodes);
    return nodes.filter((node) => {
      for (let parent = parentOf(node); parent !== null; parent = parent._parent) {
        if (kept.has(parent)) return false;
      }
      return true;
    });
  },
};

function unquote(text: string | null | undefined): string {
  return String(text ?? '')
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
}

const OPTIONS: Options<HtmlNode, HtmlElement> = {
  adapter,
  xmlMode: false,
  pseudos: {
    contains: (element, text) => element.text().toLowerCase().indexOf(unquote(text)) >= 0,
    containsown: (element, text) => element.ownText().toLowerCase().indexOf(unquote(text)) >= 0,
  },
};

const compiled = new Map<string, CompiledQuery>();

function query(css: unknown): CompiledQuery {
  const source = String(css).trim();
  const cached = compiled.get(source);
  if (cached !== undefined) return cached;
  let made: CompiledQuery;
  try {
    if (source === '') throw new Error('empty selector');
    made = compile(source, OPTIONS);
  } catch (error) {
    throw fail(
      'INVALID_INPUT',
      'invalid-selector',
      `safety.parser.html: cannot parse selector ${String(css)} (${String((error as Error).message)})`,
    );
  }
  if (compiled.size > 200) compiled.clear();
  compiled.set(source, made);
  return made;
}

/** The element itself (unless it is the document) and its descendants that match, in document order. */
export function selectIn(root: HtmlElement, css: unknown): HtmlElement[] {
  const test = query(css);
  return selectAll(test, root.tag === '#document' ? root : [root], OPTIONS);
}

/** Whether the element matches the selector. */
export function matches(element: HtmlElement, css: unknown): boolean {
  return query(css)(element);
}
