/**
 * safety.parser: every parser runs on the host (in a helper worker) and answers plain data; HTML comes back as
 * an in-isolate tree (html/dom.ts). XML, YAML and CSV results are returned as the plain data the host produced.
 */
import type { HtmlDocument as HtmlTree } from '../../parsers/markup.ts';
import { callSync, define, fail } from './bridge.ts';
import { buildDocument } from './html/dom.ts';

function requireInput(input: unknown, what: string): string {
  if (input === undefined || input === null) {
    throw fail('INVALID_INPUT', 'missing-input', 'safety.parser.' + what + ': missing input');
  }
  return String(input);
}

interface CsvOptions {
  header?: unknown;
  delimiter?: unknown;
  keepFormulas?: unknown;
}

/** The safety.parser object (the same for every call: it holds no per-call state). */
export const parserObject = {};
define(parserObject, 'html', function (input: unknown) {
  return buildDocument(callSync<HtmlTree>('parser.html', [requireInput(input, 'html')]));
});
define(parserObject, 'xml', function (input: unknown) {
  return callSync('parser.xml', [requireInput(input, 'xml')]);
});
define(parserObject, 'yaml', function (input: unknown) {
  return callSync('parser.yaml', [requireInput(input, 'yaml')]);
});
define(parserObject, 'csv', function (input: unknown, options: unknown) {
  const opts: CsvOptions = options !== null && typeof options === 'object' ? options : {};
  return callSync('parser.csv', [
    requireInput(input, 'csv'),
    opts.header === true,
    opts.delimiter === undefined || opts.delimiter === null ? undefined : String(opts.delimiter),
    opts.keepFormulas === true,
  ]);
});
