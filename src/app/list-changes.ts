/** Who hears that a list clients see (tools, prompts, resources) changed. */

/** A list clients can be told has changed. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** The listeners of list changes. */
export interface ListChanges {
  emit(kind: ListKind): void;
  /** Adds a listener; returns the unsubscribe. */
  subscribe(listener: (kind: ListKind) => void): () => void;
}

/** Creates an empty set of listeners. */
export function createListChanges(): ListChanges {
  const listeners = new Set<(kind: ListKind) => void>();
  return {
    emit(kind) {
      for (const listener of listeners) listener(kind);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
