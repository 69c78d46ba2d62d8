// A multi-name substring matcher (Aho–Corasick) so the cross-server check stays linear in the text length
// however many tool names it looks for, and however many windows of the text it asks about.

/** Where the names occur in one text: answers "does a name lie entirely inside [start, end)?" in O(1). */
export interface NameIndex {
  containsAny(start: number, end: number): boolean;
}

/** A compiled set of names. */
export interface NameMatcher {
  /** How many non-empty names the matcher holds. */
  readonly size: number;
  /** Finds every name in `text` in one pass, O(text length). */
  index(text: string): NameIndex;
}

interface Node {
  readonly next: Map<number, Node>;
  fail: Node;
  /** Length of the shortest name that ends here (this state's string or one of its suffixes); 0 when none. */
  shortest: number;
}

function step(root: Node, from: Node, code: number): Node {
  let state = from;
  for (;;) {
    const target = state.next.get(code);
    if (target !== undefined) return target;
    if (state === root) return root;
    state = state.fail;
  }
}

const NO_NAMES: NameIndex = { containsAny: () => false };

/** Builds a matcher over the given names, matched exactly as given (callers lower-case both sides). */
export function createNameMatcher(names: Iterable<string>): NameMatcher {
  const root = { next: new Map(), shortest: 0 } as unknown as Node;
  root.fail = root;
  let size = 0;
  for (const name of names) {
    if (name === '') continue;
    size += 1;
    let state = root;
    for (let i = 0; i < name.length; i += 1) {
      const code = name.charCodeAt(i);
      let target = state.next.get(code);
      if (target === undefined) {
        target = { next: new Map(), fail: root, shortest: 0 };
        state.next.set(code, target);
      }
      state = target;
    }
    state.shortest = name.length;
  }
  // Breadth-first, so every fail link points at a node whose own links are already final. A fail target's
  // string is a proper suffix of this state's, so a name ending there is shorter than one ending here.
  const queue: Node[] = [...root.next.values()];
  for (let head = 0; head < queue.length; head += 1) {
    const state = queue[head] as Node;
    for (const [code, target] of state.next) {
      target.fail = state === root ? root : step(root, state.fail, code);
      if (target.fail.shortest > 0) target.shortest = target.fail.shortest;
      queue.push(target);
    }
  }
  return {
    size,
    index(text: string): NameIndex {
      if (size === 0) return NO_NAMES;
      const length = text.length;
      // firstEnd[a]: the smallest end of a name occurrence starting at a or later (length + 1 when none). Per
      // end, the shortest name ending there is the one that starts latest, so it alone decides.
      const firstEnd = new Int32Array(length + 1).fill(length + 1);
      let state = root;
      for (let i = 0; i < length; i += 1) {
        state = step(root, state, text.charCodeAt(i));
        if (state.shortest > 0) {
          const start = i + 1 - state.shortest;
          if (i + 1 < (firstEnd[start] as number)) firstEnd[start] = i + 1;
        }
      }
      for (let a = length - 1; a >= 0; a -= 1) {
        if ((firstEnd[a + 1] as number) < (firstEnd[a] as number)) firstEnd[a] = firstEnd[a + 1] as number;
      }
      // A name lies inside [start, end) iff the earliest-ending occurrence starting at or after start ends by end.
      return { containsAny: (start, end) => start < length && (firstEnd[start] as number) <= end };
    },
  };
}
