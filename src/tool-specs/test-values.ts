/** Parsing a param's string testValue into its declared type (docs/rules/tool-specs.md, R-SPEC-3). */
import type { ParamType } from './types.ts';

/** A parsed value, or why the string does not fit the declared type. */
export type ParsedTestValue = { ok: true; value: unknown } | { ok: false; message: string };

const INTEGER = /^[+-]?\d+$/;

/** Parses `text` as a value of `type`; STRING is returned as is, the others are parsed strictly. */
export function parseTestValue(type: ParamType, text: string): ParsedTestValue {
  const trimmed = text.trim();
  switch (type) {
    case 'STRING':
      return { ok: true, value: text };
    case 'INTEGER': {
      const value = Number(trimmed);
      return INTEGER.test(trimmed) && Number.isSafeInteger(value)
        ? { ok: true, value }
        : { ok: false, message: `"${text}" is not an integer` };
    }
    case 'NUMBER': {
      const value = trimmed === '' ? Number.NaN : Number(trimmed);
      return Number.isFinite(value)
        ? { ok: true, value }
        : { ok: false, message: `"${text}" is not a number` };
    }
    case 'BOOLEAN': {
      const lowered = trimmed.toLowerCase();
      if (lowered === 'true' || lowered === 'false') return { ok: true, value: lowered === 'true' };
      return { ok: false, message: `"${text}" is not true or false` };
    }
    case 'OBJECT':
    case 'ARRAY': {
      let value: unknown;
      try {
        value = JSON.parse(trimmed);
      } catch {
        return {
          ok: false,
          message: `"${text}" is not JSON (an ${type.toLowerCase()} testValue is JSON text)`,
        };
      }
      const isArray = Array.isArray(value);
      const fits = type === 'ARRAY' ? isArray : value !== null && typeof value === 'object' && !isArray;
      return fits
        ? { ok: true, value }
        : { ok: false, message: `"${text}" is JSON but not an ${type === 'ARRAY' ? 'array' : 'object'}` };
    }
  }
}
