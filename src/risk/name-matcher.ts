// A multi-name substring matcher (Aho–Corasick) so the cross-server check stays linear in the text length
// however many tool names it looks for.

/** Answers "does any of the names occur entirely inside text[start, end)?" in O(end − start). */
export interface NameMatcher {
  /** How many non-empty names the matcher holds. */
  readonly size: number;
  containsAny(text: string, start: number, end: number): boolean;
}

interface Node {
  readonly next: Map<number, Node>;
  fail: Node;
  accepting: boolean;
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

/** Builds a matcher over the given names, matched exactly as given (callers lower-case both sides). */
export function createNameMatcher(names: Iterable<string>): NameMatcher {
  const root = { next: new Map(), accepting: false } as Node;
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
        target = { next: new Map(), fail: root, accepting: false };
        state.next.set(code, target);
      }
      state = target;
    }
    state.accepting = true;
  }
  // Breadth-first, so every fail link points at a node whose own links are already final.
  const queue: Node[] = [...root.next.values()];
  for (let head = 0; head < queue.length; head += 1) {
    const state = queue[head] as Node;
    for (const [code, target] of state.next) {
      target.fail = state === root ? root : step(root, state.fail, code);
      target.accepting ||= target.fail.accepting;
      queue.push(target);
    }
  }
  return {
    size,
    containsAny(text: string, start: number, end: number): boolean {
      let state = root;
      for (let i = start; i < end; i += 1) {
        state = step(root, state, text.charCodeAt(i));
        if (state.accepting) return true;
      }
      return false;
    },
  };
}
