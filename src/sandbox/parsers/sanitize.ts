/**
 * The sanitizing mode of safety.parser.html: markup handed back by `html()`, `outerHtml()` and `sanitized()` goes
 * through sanitize-html with an allowlist of text and structure elements. What it removes, and why, is listed in
 * docs/security.md ("Parsers hand on safe output"). It runs on the host (in a helper worker): sanitize-html needs postcss
 * and Node's module graph, which do not belong in the isolate.
 */
import sanitizeHtml from 'sanitize-html';

const TEXT_AND_STRUCTURE = [...sanitizeHtml.defaults.allowedTags, 'img'];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: TEXT_AND_STRUCTURE,
  allowedAttributes: {
    '*': ['class', 'id', 'title', 'lang', 'dir'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'srcset', 'alt', 'width', 'height', 'loading'],
    td: ['colspan', 'rowspan', 'headers'],
    th: ['colspan', 'rowspan', 'headers', 'scope'],
  },
  // No data: (data:text/html runs script when opened) and no javascript:; relative URLs stay.
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'srcset'],
  allowProtocolRelative: false,
  // Their text is code or metadata, not content: dropped with the element.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'iframe', 'object'],
  disallowedTagsMode: 'discard',
};

/** Markup with scripts, event handlers, script URLs, frames, forms, plugins, base and meta elements removed. */
export function sanitizeMarkup(markup: string): string {
  return sanitizeHtml(markup, OPTIONS);
}
