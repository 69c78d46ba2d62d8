/**
 * The in-isolate HTML tree behind safety.parser.html: the host parses and returns a plain tree (parsers/markup.ts);
 * here it is wrapped in small element objects with a jsoup-like surface (text, attr, select, remove, html) so that
 * catalog tools written against that surface keep working. Markup leaves sanitized (the host's sanitize-html)
 * unless the caller asks for `{ raw: true }`; docs/security.md lists what each method returns.
 */
import type { HtmlDocument as HtmlTree, HtmlNode as HtmlTreeNode } from '../../../parsers/markup.ts';
import { callSync, define, objectKeys } from '../bridge.ts';
import { matches, selectIn } from './select.ts';

/** A text or raw-text (script, style) node of the in-isolate tree. */
export interface TextNode {
  type: 'text' | 'data';
  text: string;
}

/** Any node of the in-isolate tree. */
export type HtmlNode = HtmlElement | TextNode;

const BLOCK_TAGS = new Set(
  (
    'address article aside blockquote br dd div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 ' +
    'header hr li main nav ol p pre section table tbody td tfoot th thead tr ul title body head'
  ).split(' '),
);
const VOID_TAGS = new Set('area base br col embed hr img input link meta source track wbr'.split(' '));

function escapeHtml(text: unknown, attribute: boolean): string {
  let out = String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (attribute) out = out.replace(/"/g, '&quot;');
  return out;
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function collectText(element: HtmlElement, parts: string[], ownOnly: boolean): void {
  for (const node of element._nodes) {
    if (node instanceof HtmlElement) {
      if (ownOnly) continue;
      const block = BLOCK_TAGS.has(node.tag);
      if (block) parts.push(' ');
      collectText(node, parts, false);
      if (block) parts.push(' ');
    } else if (node.type === 'text') {
      parts.push(node.text);
    }
  }
}

function serializeNodes(element: HtmlElement): string {
  let out = '';
  for (const node of element._nodes) {
    if (node instanceof HtmlElement) out += node.rawOuterHtml();
    else if (node.type === 'data') out += node.text;
    else out += escapeHtml(node.text, false);
  }
  return out;
}

// Markup leaves sanitized unless the caller names { raw: true }.
function handOn(markup: string, options: unknown): string {
  if (options !== null && typeof options === 'object' && (options as { raw?: unknown }).raw === true)
    return markup;
  return markup === '' ? '' : callSync<string>('parser.sanitizeHtml', [markup]);
}

/** A selection of elements (an Array with jsoup's Elements methods). */
export class Elements extends Array<HtmlElement> {
  size(): number {
    return this.length;
  }
  first(): HtmlElement | null {
    return this.length > 0 ? (this[0] as HtmlElement) : null;
  }
  last(): HtmlElement | null {
    return this.length > 0 ? (this[this.length - 1] as HtmlElement) : null;
  }
  text(): string {
    return this.eachText().join(' ');
  }
  eachText(): string[] {
    const out: string[] = [];
    for (const element of this) {
      const text = element.text();
      if (text !== '') out.push(text);
    }
    return out;
  }
  attr(name: unknown): string {
    for (const element of this) if (element.hasAttr(name)) return element.attr(name);
    return '';
  }
  eachAttr(name: unknown): string[] {
    const out: string[] = [];
    for (const element of this) if (element.hasAttr(name)) out.push(element.attr(name));
    return out;
  }
  hasClass(name: unknown): boolean {
    for (const element of this) if (element.hasClass(name)) return true;
    return false;
  }
  remove(): this {
    for (const element of this) element.remove();
    return this;
  }
  select(css: unknown): Elements {
    const seen = new Set<HtmlElement>();
    const out = new Elements();
    for (const element of this) {
      for (const found of element.select(css)) {
        if (!seen.has(found)) {
          seen.add(found);
          out.push(found);
        }
      }
    }
    return out;
  }
  html(options?: unknown): string {
    const out: string[] = [];
    for (const element of this) out.push(serializeNodes(element));
    return handOn(out.join('\n'), options);
  }
  outerHtml(options?: unknown): string {
    const out: string[] = [];
    for (const element of this) out.push(element.rawOuterHtml());
    return handOn(out.join('\n'), options);
  }
  sanitized(): string {
    return this.outerHtml();
  }
}

/** One element; `tag`, `attrs` and `children` are its visible data. */
export class HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlElement[] = [];
  /** Child nodes, text included (not enumerable: JSON and Object.keys show the element's data only). */
  declare _nodes: HtmlNode[];
  declare _parent: HtmlElement | null;
  constructor(tag: string, attrs: Record<string, string>) {
    this.tag = tag;
    this.attrs = attrs;
    define(this, '_nodes', []);
    define(this, '_parent', null);
  }
  tagName(): string {
    return this.tag;
  }
  nodeName(): string {
    return this.tag;
  }
  attr(name: unknown): string {
    const key = String(name).toLowerCase();
    return Object.prototype.hasOwnProperty.call(this.attrs, key) ? (this.attrs[key] as string) : '';
  }
  hasAttr(name: unknown): boolean {
    return Object.prototype.hasOwnProperty.call(this.attrs, String(name).toLowerCase());
  }
  id(): string {
    return this.attr('id');
  }
  className(): string {
    return this.attr('class');
  }
  classNames(): string[] {
    return this.className().split(/\s+/).filter(Boolean);
  }
  hasClass(name: unknown): boolean {
    return this.classNames().indexOf(String(name)) >= 0;
  }
  text(): string {
    const parts: string[] = [];
    collectText(this, parts, false);
    return normalizeSpace(parts.join(''));
  }
  ownText(): string {
    const parts: string[] = [];
    collectText(this, parts, true);
    return normalizeSpace(parts.join(''));
  }
  wholeText(): string {
    const parts: string[] = [];
    collectText(this, parts, false);
    return parts.join('');
  }
  data(): string {
    let out = '';
    for (const node of this._nodes)
      if (!(node instanceof HtmlElement) && node.type === 'data') out += node.text;
    return out;
  }
  html(options?: unknown): string {
    return handOn(serializeNodes(this), options);
  }
  outerHtml(options?: unknown): string {
    return handOn(this.rawOuterHtml(), options);
  }
  sanitized(): string {
    return callSync<string>('parser.sanitizeHtml', [
      this.tag === '#document' ? serializeNodes(this) : this.rawOuterHtml(),
    ]);
  }
  rawOuterHtml(): string {
    let open = '<' + this.tag;
    for (const key of objectKeys(this.attrs))
      open += ' ' + key + '="' + escapeHtml(this.attrs[key], true) + '"';
    open += '>';
    if (VOID_TAGS.has(this.tag)) return open;
    return open + serializeNodes(this) + '</' + this.tag + '>';
  }
  parent(): HtmlElement | null {
    return this._parent !== null && this._parent.tag !== '#document' ? this._parent : null;
  }
  child(index: number): HtmlElement | null {
    return this.children[index] ?? null;
  }
  firstElementChild(): HtmlElement | null {
    return this.child(0);
  }
  remove(): this {
    const parent = this._parent;
    if (parent === null) return this;
    let index = parent._nodes.indexOf(this);
    if (index >= 0) parent._nodes.splice(index, 1);
    index = parent.children.indexOf(this);
    if (index >= 0) parent.children.splice(index, 1);
    this._parent = null;
    return this;
  }
  select(css: unknown): Elements {
    const out = new Elements();
    for (const found of selectIn(this, css)) out.push(found);
    return out;
  }
  selectFirst(css: unknown): HtmlElement | null {
    return this.select(css).first();
  }
  is(css: unknown): boolean {
    return this.tag !== '#document' && matches(this, css);
  }
  getElementsByTag(tag: unknown): Elements {
    return this.select(String(tag));
  }
  getElementById(id: unknown): HtmlElement | null {
    const found = this.select('*').filter((element) => element.attr('id') === String(id));
    return found[0] ?? null;
  }
  getElementsByClass(name: unknown): Elements {
    return this.select('*').filter((element) => element.hasClass(name)) as Elements;
  }
  toJSON(): object {
    return { tag: this.tag, attrs: this.attrs, text: this.text(), children: this.children };
  }
}

/** The parsed document: an element named `#document` with title, body and head. */
export class HtmlDocument extends HtmlElement {
  constructor() {
    super('#document', {});
  }
  title(): string {
    const found = this.selectFirst('title');
    return found === null ? '' : found.text();
  }
  body(): HtmlElement {
    return this.selectFirst('body') ?? this;
  }
  head(): HtmlElement | null {
    return this.selectFirst('head');
  }
}

function buildElement(nodes: HtmlTreeNode[], element: HtmlElement): HtmlElement {
  for (const child of nodes) {
    if (child.type === 'element') {
      const built = new HtmlElement(child.tag, child.attrs);
      built._parent = element;
      element._nodes.push(built);
      element.children.push(built);
      buildElement(child.children, built);
    } else {
      element._nodes.push({ type: child.type, text: child.text });
    }
  }
  return element;
}

/** Wraps the host's plain tree as an in-isolate document. */
export function buildDocument(tree: HtmlTree): HtmlDocument {
  const document = new HtmlDocument();
  buildElement(tree.children, document);
  return document;
}
