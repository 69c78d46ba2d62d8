/**
 * In-isolate JavaScript, part 7: safety.parser. The host parses and returns plain trees; here the HTML tree is
 * wrapped in small in-isolate element objects with a jsoup-like surface (text, attr, select with a CSS subset,
 * remove, html) so that catalog tools written against the reference keep working. XML, YAML and CSV results are
 * returned as the plain data the host produced.
 */
export const HTML_SOURCE = String.raw`
const BLOCK_TAGS = new Set(['address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav',
  'ol', 'p', 'pre', 'section', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'title', 'body', 'head']);
const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source',
  'track', 'wbr']);

function escapeHtml(text, attribute) {
  let out = String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (attribute) out = out.replace(/"/g, '&quot;');
  return out;
}

function normalizeSpace(text) {
  return text.replace(/\s+/g, ' ').trim();
}

function collectText(element, parts, ownOnly) {
  const nodes = element._nodes;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
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

function serializeNodes(element) {
  let out = '';
  const nodes = element._nodes;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (node instanceof HtmlElement) out += node.rawOuterHtml();
    else if (node.type === 'data') out += node.text;
    else out += escapeHtml(node.text, false);
  }
  return out;
}

// Markup leaves sanitized unless the caller names { raw: true }.
function handOn(markup, options) {
  if (options !== null && typeof options === 'object' && options.raw === true) return markup;
  return markup === '' ? '' : callSync('parser.sanitizeHtml', [markup]);
}

function elementSiblings(element) {
  return element._parent === null ? [element] : element._parent.children;
}

class Elements extends Array {
  size() {
    return this.length;
  }
  first() {
    return this.length > 0 ? this[0] : null;
  }
  last() {
    return this.length > 0 ? this[this.length - 1] : null;
  }
  text() {
    const parts = [];
    for (let i = 0; i < this.length; i++) {
      const text = this[i].text();
      if (text !== '') parts.push(text);
    }
    return parts.join(' ');
  }
  eachText() {
    const out = [];
    for (let i = 0; i < this.length; i++) {
      const text = this[i].text();
      if (text !== '') out.push(text);
    }
    return out;
  }
  attr(name) {
    for (let i = 0; i < this.length; i++) if (this[i].hasAttr(name)) return this[i].attr(name);
    return '';
  }
  eachAttr(name) {
    const out = [];
    for (let i = 0; i < this.length; i++) if (this[i].hasAttr(name)) out.push(this[i].attr(name));
    return out;
  }
  hasClass(name) {
    for (let i = 0; i < this.length; i++) if (this[i].hasClass(name)) return true;
    return false;
  }
  remove() {
    for (let i = 0; i < this.length; i++) this[i].remove();
    return this;
  }
  select(css) {
    const seen = new Set();
    const out = new Elements();
    for (let i = 0; i < this.length; i++) {
      const found = this[i].select(css);
      for (let j = 0; j < found.length; j++) {
        if (!seen.has(found[j])) {
          seen.add(found[j]);
          out.push(found[j]);
        }
      }
    }
    return out;
  }
  html(options) {
    const out = [];
    for (let i = 0; i < this.length; i++) out.push(serializeNodes(this[i]));
    return handOn(out.join('\n'), options);
  }
  outerHtml(options) {
    const out = [];
    for (let i = 0; i < this.length; i++) out.push(this[i].rawOuterHtml());
    return handOn(out.join('\n'), options);
  }
  sanitized() {
    return this.outerHtml();
  }
}

class HtmlElement {
  constructor(tag, attrs) {
    this.tag = tag;
    this.attrs = attrs;
    this.children = [];
    define(this, '_nodes', []);
    define(this, '_parent', null);
  }
  tagName() {
    return this.tag;
  }
  nodeName() {
    return this.tag;
  }
  attr(name) {
    const key = String(name).toLowerCase();
    return Object.prototype.hasOwnProperty.call(this.attrs, key) ? this.attrs[key] : '';
  }
  hasAttr(name) {
    return Object.prototype.hasOwnProperty.call(this.attrs, String(name).toLowerCase());
  }
  id() {
    return this.attr('id');
  }
  className() {
    return this.attr('class');
  }
  classNames() {
    return this.className().split(/\s+/).filter(Boolean);
  }
  hasClass(name) {
    return this.classNames().indexOf(String(name)) >= 0;
  }
  text() {
    const parts = [];
    collectText(this, parts, false);
    return normalizeSpace(parts.join(''));
  }
  ownText() {
    const parts = [];
    collectText(this, parts, true);
    return normalizeSpace(parts.join(''));
  }
  wholeText() {
    const parts = [];
    collectText(this, parts, false);
    return parts.join('');
  }
  data() {
    let out = '';
    for (let i = 0; i < this._nodes.length; i++) if (this._nodes[i].type === 'data') out += this._nodes[i].text;
    return out;
  }
  html(options) {
    return handOn(serializeNodes(this), options);
  }
  outerHtml(options) {
    return handOn(this.rawOuterHtml(), options);
  }
  sanitized() {
    return callSync('parser.sanitizeHtml', [this.tag === '#document' ? serializeNodes(this) : this.rawOuterHtml()]);
  }
  rawOuterHtml() {
    let open = '<' + this.tag;
    const keys = objectKeys(this.attrs);
    for (let i = 0; i < keys.length; i++) open += ' ' + keys[i] + '="' + escapeHtml(this.attrs[keys[i]], true) + '"';
    open += '>';
    if (VOID_TAGS.has(this.tag)) return open;
    return open + serializeNodes(this) + '</' + this.tag + '>';
  }
  parent() {
    return this._parent !== null && this._parent.tag !== '#document' ? this._parent : null;
  }
  child(index) {
    const found = this.children[index];
    return found === undefined ? null : found;
  }
  firstElementChild() {
    return this.child(0);
  }
  remove() {
    const parent = this._parent;
    if (parent === null) return this;
    let index = parent._nodes.indexOf(this);
    if (index >= 0) parent._nodes.splice(index, 1);
    index = parent.children.indexOf(this);
    if (index >= 0) parent.children.splice(index, 1);
    this._parent = null;
    return this;
  }
  select(css) {
    const groups = parseSelector(css);
    const out = new Elements();
    const visit = function (element) {
      for (let i = 0; i < element.children.length; i++) {
        const child = element.children[i];
        if (matchesAny(child, groups)) out.push(child);
        visit(child);
      }
    };
    if (this.tag !== '#document' && matchesAny(this, groups)) out.push(this);
    visit(this);
    return out;
  }
  selectFirst(css) {
    return this.select(css).first();
  }
  is(css) {
    return matchesAny(this, parseSelector(css));
  }
  getElementsByTag(tag) {
    return this.select(String(tag));
  }
  getElementById(id) {
    const found = this.select('*').filter(function (element) {
      return element.attr('id') === String(id);
    });
    return found.length > 0 ? found[0] : null;
  }
  getElementsByClass(name) {
    return this.select('*').filter(function (element) {
      return element.hasClass(name);
    });
  }
  toJSON() {
    return { tag: this.tag, attrs: this.attrs, text: this.text(), children: this.children };
  }
}

class HtmlDocument extends HtmlElement {
  constructor() {
    super('#document', {});
  }
  title() {
    const found = this.selectFirst('title');
    return found === null ? '' : found.text();
  }
  body() {
    const found = this.selectFirst('body');
    return found === null ? this : found;
  }
  head() {
    return this.selectFirst('head');
  }
}

function buildElement(node, element) {
  const children = node.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child.type === 'element') {
      const built = new HtmlElement(child.tag, child.attrs);
      built._parent = element;
      element._nodes.push(built);
      element.children.push(built);
      buildElement(child, built);
    } else {
      element._nodes.push({ type: child.type, text: child.text });
    }
  }
  return element;
}

function selectorError(css) {
  return fail('INVALID_INPUT', 'invalid-selector', 'safety.parser.html: cannot parse selector ' + String(css));
}

const IDENT = /-?[_a-zA-Z\u00a0-\uffff][_a-zA-Z0-9\u00a0-\uffff-]*/y;
const selectorCache = new Map();

function readIdent(state) {
  IDENT.lastIndex = state.i;
  const match = IDENT.exec(state.s);
  if (match === null) throw selectorError(state.s);
  state.i = IDENT.lastIndex;
  return match[0];
}

function readParenthesized(state) {
  let depth = 1;
  const start = state.i;
  while (state.i < state.s.length && depth > 0) {
    const c = state.s[state.i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    state.i++;
  }
  if (depth !== 0) throw selectorError(state.s);
  return state.s.slice(start, state.i - 1).trim();
}

function readAttribute(state) {
  const close = state.s.indexOf(']', state.i);
  if (close < 0) throw selectorError(state.s);
  const body = state.s.slice(state.i, close).trim();
  state.i = close + 1;
  const match = /^([^\s~|^$*=]+)\s*(?:([~|^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|(.*?)))?\s*$/.exec(body);
  if (match === null) throw selectorError(state.s);
  const value = match[3] !== undefined ? match[3] : match[4] !== undefined ? match[4] : match[5];
  return { name: match[1].toLowerCase(), op: match[2] || null, value: value === undefined ? '' : value };
}

function readCompound(state) {
  const compound = { tag: null, ids: [], classes: [], attrs: [], pseudos: [] };
  let any = false;
  if (state.s[state.i] === '*') {
    compound.tag = '*';
    state.i++;
    any = true;
  } else if (/[_a-zA-Z\u00a0-\uffff-]/.test(state.s[state.i] || '')) {
    compound.tag = readIdent(state).toLowerCase();
    any = true;
  }
  for (;;) {
    const c = state.s[state.i];
    if (c === '#') {
      state.i++;
      compound.ids.push(readIdent(state));
    } else if (c === '.') {
      state.i++;
      compound.classes.push(readIdent(state));
    } else if (c === '[') {
      state.i++;
      compound.attrs.push(readAttribute(state));
    } else if (c === ':') {
      state.i++;
      const name = readIdent(state).toLowerCase();
      let argument = null;
      if (state.s[state.i] === '(') {
        state.i++;
        argument = readParenthesized(state);
      }
      compound.pseudos.push(makePseudo(name, argument, state.s));
    } else {
      break;
    }
    any = true;
  }
  if (!any) throw selectorError(state.s);
  return compound;
}

function makePseudo(name, argument, css) {
  if (name === 'first-child' || name === 'last-child' || name === 'only-child' || name === 'empty') {
    return { name: name };
  }
  if (name === 'not' || name === 'has') {
    if (argument === null || argument === '') throw selectorError(css);
    return { name: name, groups: parseSelector(argument) };
  }
  if (name === 'contains' || name === 'containsown') {
    if (argument === null) throw selectorError(css);
    return { name: name, text: argument.replace(/^["']|["']$/g, '').toLowerCase() };
  }
  if (name === 'nth-child') {
    const text = argument === null ? '' : argument.toLowerCase();
    if (text === 'odd') return { name: name, a: 2, b: 1 };
    if (text === 'even') return { name: name, a: 2, b: 0 };
    if (/^\d+$/.test(text)) return { name: name, a: 0, b: Number(text) };
    throw selectorError(css);
  }
  throw selectorError(css);
}

function parseSelector(css) {
  const source = String(css).trim();
  const cached = selectorCache.get(source);
  if (cached !== undefined) return cached;
  if (source === '') throw selectorError(css);
  const state = { s: source, i: 0 };
  const groups = [];
  let sequence = [];
  let combinator = null;
  while (state.i <= state.s.length) {
    let sawSpace = false;
    while (/\s/.test(state.s[state.i] || '')) {
      state.i++;
      sawSpace = true;
    }
    const c = state.s[state.i];
    if (c === undefined || c === ',') {
      if (sequence.length === 0 || combinator !== null) throw selectorError(css);
      groups.push(sequence);
      sequence = [];
      if (c === undefined) break;
      state.i++;
      continue;
    }
    if (c === '>' || c === '+' || c === '~') {
      if (sequence.length === 0 || combinator !== null) throw selectorError(css);
      combinator = c;
      state.i++;
      continue;
    }
    if (sequence.length > 0 && combinator === null) {
      if (!sawSpace) throw selectorError(css);
      combinator = ' ';
    }
    sequence.push({ compound: readCompound(state), combinator: sequence.length === 0 ? null : combinator });
    combinator = null;
  }
  if (selectorCache.size > 200) selectorCache.clear();
  selectorCache.set(source, groups);
  return groups;
}

function previousSibling(element) {
  const siblings = elementSiblings(element);
  const index = siblings.indexOf(element);
  return index > 0 ? siblings[index - 1] : null;
}

function matchesAttribute(element, rule) {
  if (!element.hasAttr(rule.name)) return false;
  if (rule.op === null) return true;
  const actual = element.attr(rule.name);
  const expected = rule.value;
  switch (rule.op) {
    case '=':
      return actual === expected;
    case '~=':
      return actual.split(/\s+/).indexOf(expected) >= 0;
    case '|=':
      return actual === expected || actual.indexOf(expected + '-') === 0;
    case '^=':
      return expected !== '' && actual.indexOf(expected) === 0;
    case '$=':
      return expected !== '' && actual.slice(-expected.length) === expected;
    case '*=':
      return expected !== '' && actual.indexOf(expected) >= 0;
    default:
      return false;
  }
}

function matchesPseudo(element, pseudo) {
  const siblings = elementSiblings(element);
  switch (pseudo.name) {
    case 'first-child':
      return siblings[0] === element;
    case 'last-child':
      return siblings[siblings.length - 1] === element;
    case 'only-child':
      return siblings.length === 1;
    case 'empty':
      return element._nodes.length === 0;
    case 'not':
      return !matchesAny(element, pseudo.groups);
    case 'has':
      return element.children.some(function (child) {
        return child.select('*').some(function (candidate) {
          return matchesAny(candidate, pseudo.groups);
        });
      });
    case 'contains':
      return element.text().toLowerCase().indexOf(pseudo.text) >= 0;
    case 'containsown':
      return element.ownText().toLowerCase().indexOf(pseudo.text) >= 0;
    case 'nth-child': {
      const position = siblings.indexOf(element) + 1;
      return pseudo.a === 0 ? position === pseudo.b : position % pseudo.a === pseudo.b % pseudo.a;
    }
    default:
      return false;
  }
}

function matchesCompound(element, compound) {
  if (compound.tag !== null && compound.tag !== '*' && element.tag !== compound.tag) return false;
  for (let i = 0; i < compound.ids.length; i++) if (element.attr('id') !== compound.ids[i]) return false;
  for (let i = 0; i < compound.classes.length; i++) if (!element.hasClass(compound.classes[i])) return false;
  for (let i = 0; i < compound.attrs.length; i++) if (!matchesAttribute(element, compound.attrs[i])) return false;
  for (let i = 0; i < compound.pseudos.length; i++) if (!matchesPseudo(element, compound.pseudos[i])) return false;
  return true;
}

function matchesSequence(element, sequence, index) {
  const step = sequence[index];
  if (!matchesCompound(element, step.compound)) return false;
  if (index === 0) return true;
  const isElement = function (node) {
    return node !== null && node.tag !== '#document';
  };
  switch (step.combinator) {
    case '>':
      return isElement(element._parent) && matchesSequence(element._parent, sequence, index - 1);
    case '+': {
      const previous = previousSibling(element);
      return previous !== null && matchesSequence(previous, sequence, index - 1);
    }
    case '~':
      for (let previous = previousSibling(element); previous !== null; previous = previousSibling(previous)) {
        if (matchesSequence(previous, sequence, index - 1)) return true;
      }
      return false;
    default:
      for (let parent = element._parent; isElement(parent); parent = parent._parent) {
        if (matchesSequence(parent, sequence, index - 1)) return true;
      }
      return false;
  }
}

function matchesAny(element, groups) {
  for (let i = 0; i < groups.length; i++) if (matchesSequence(element, groups[i], groups[i].length - 1)) return true;
  return false;
}

function requireInput(input, what) {
  if (input === undefined || input === null) {
    throw fail('INVALID_INPUT', 'missing-input', 'safety.parser.' + what + ': missing input');
  }
  return String(input);
}

const parserObject = {};
define(parserObject, 'html', function (input) {
  return buildElement(callSync('parser.html', [requireInput(input, 'html')]), new HtmlDocument());
});
define(parserObject, 'xml', function (input) {
  return callSync('parser.xml', [requireInput(input, 'xml')]);
});
define(parserObject, 'yaml', function (input) {
  return callSync('parser.yaml', [requireInput(input, 'yaml')]);
});
define(parserObject, 'csv', function (input, options) {
  const opts = options !== null && typeof options === 'object' ? options : {};
  return callSync('parser.csv', [
    requireInput(input, 'csv'),
    opts.header === true,
    opts.delimiter === undefined || opts.delimiter === null ? undefined : String(opts.delimiter),
    opts.keepFormulas === true,
  ]);
});
`;
