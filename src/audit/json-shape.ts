/**
 * Bounds on the shape of client- or upstream-controlled JSON values (docs/security.md, "Hostile input"): how
 * deeply objects and arrays nest and how many values there are in all. Measured iteratively, so any input is
 * safe to measure, and the walk stops at the first excess, so its cost is bounded by the limits themselves.
 */

/** The deepest nesting of objects and arrays accepted (the outermost object is level 1). */
export const MAX_JSON_DEPTH = 64;

/** The most values (objects, arrays and scalars; keys not counted) accepted in one value. */
export const MAX_JSON_NODES = 100_000;

/**
 * The deepest nesting of a tool result passed on to the client: deeper ones are refused, because the
 * transports' JSON encoder gives up a few thousand levels down and the client would never get an answer.
 */
export const MAX_RESULT_DEPTH = 512;

/** How a value breaks the bounds: nested too deep, too many values, or an object met twice (never from JSON text). */
export type JsonShapeExcess = 'too-deep' | 'too-many-nodes' | 'not-json';

/** The first bound the value breaks, or undefined when it is within them. */
export function jsonShapeExcess(
  value: unknown,
  maxDepth: number = MAX_JSON_DEPTH,
  maxNodes: number = MAX_JSON_NODES,
): JsonShapeExcess | undefined {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  const seen = new Set<object>();
  let nodes = 0;
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop() as number;
    nodes += 1;
    if (nodes > maxNodes) return 'too-many-nodes';
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > maxDepth) return 'too-deep';
    // A parsed JSON text has no shared or cyclic objects; a cycle would otherwise look like endless nodes.
    if (seen.has(current)) return 'not-json';
    seen.add(current);
    for (const inner of Array.isArray(current) ? current : Object.values(current)) {
      values.push(inner);
      depths.push(depth + 1);
    }
    // Every value waiting on the stack will be counted: refuse a huge container before walking it.
    if (nodes + values.length > maxNodes) return 'too-many-nodes';
  }
  return undefined;
}
