/**
 * The approval inbox of the `console` channel (docs/rules/approval.md#r-hitl-5-approval-channels): calls that
 * wait for an operator's yes. Each entry is bound to the principal, the alias and the argument digest of the
 * call that asked; it expires after the window, unanswered (expired) or answered but never claimed. Bounded in
 * count overall and per principal. A verdict is claimed once, by the call it is bound to.
 */
import { randomBytes } from 'node:crypto';
import type { RiskLevel } from '../risk/index.ts';
import type { RequestStateBinding } from './request-state.ts';

/** What a call puts in the inbox: who asks, for what, and the arguments as an operator may see them (masked). */
export interface InboxRequest extends RequestStateBinding {
  /** The upstream of the tool; null for a local tool. */
  upstream: string | null;
  /** The tool's own name (upstream tool name or local tool id). */
  tool: string;
  origin: 'upstream' | 'local' | 'composition';
  risk: RiskLevel;
  /** The call's arguments, masked. */
  arguments: unknown;
  /** The approval prompt the client would have shown. */
  prompt: string;
  ruleId?: string;
  era: 'legacy' | 'modern';
}

/** An operator's answer. */
export interface InboxAnswer {
  actor: string;
  reason: string;
  /** Ms since the epoch. */
  at: number;
}

/** How an entry ended, for the call that waits on it. */
export type InboxVerdict =
  ({ outcome: 'approved' } & InboxAnswer) | ({ outcome: 'declined' } & InboxAnswer) | { outcome: 'expired' };

/** One entry as the admin API shows it. */
export interface InboxEntry extends InboxRequest {
  id: string;
  createdAt: number;
  expiresAt: number;
  status: 'pending' | 'approved' | 'declined';
  answer?: InboxAnswer;
}

/** What the inbox tells its watchers (the admin API's live stream). */
export interface InboxEvent {
  type: 'added' | 'approved' | 'declined' | 'expired' | 'withdrawn' | 'claimed';
  entry: InboxEntry;
}

/** The result of waiting: a verdict, still pending after the hold (or the waiter gave up), or no such entry. */
export type InboxWait = InboxVerdict | { outcome: 'pending' } | { outcome: 'unknown' };

/** Why an operator's answer was refused. */
export type DecideRefusal = 'not-found' | 'already-decided';

/** The inbox. */
export interface ApprovalInbox {
  /** Adds a call; refused (with the reason) when the inbox or the principal's share of it is full. */
  submit(request: InboxRequest): { ok: true; entry: InboxEntry } | { ok: false; reason: string };
  /**
   * Waits for the verdict of entry `id` if it is bound to `binding`, up to `holdMs` (until it expires when
   * absent) or until `signal` aborts. A verdict is handed out once: the entry leaves the inbox.
   */
  wait(
    id: string,
    binding: RequestStateBinding,
    options?: { holdMs?: number; signal?: AbortSignal },
  ): Promise<InboxWait>;
  /** Records an operator's answer on a pending entry and wakes the call waiting on it. */
  decide(
    id: string,
    verdict: 'approve' | 'decline',
    answer: Omit<InboxAnswer, 'at'>,
  ): { ok: true; entry: InboxEntry } | { ok: false; reason: DecideRefusal };
  /** Removes a pending entry whose call went away (the client disconnected). */
  withdraw(id: string): void;
  /** The entries, oldest first (pending and answered-but-unclaimed). */
  list(): InboxEntry[];
  get(id: string): InboxEntry | undefined;
  /** Calls `listener` on every change; returns the unsubscribe. */
  subscribe(listener: (event: InboxEvent) => void): () => void;
  readonly size: number;
  /** Expires every entry (waiting calls are denied) and stops the timers. */
  close(): void;
}

/** Options of the inbox. */
export interface ApprovalInboxOptions {
  /** How long an entry lives (the approval window, `approval.elicitationTimeout`). */
  ttlMs: number;
  maxPending: number;
  maxPerPrincipal: number;
  now: () => number;
  /** Runs `run` once after `ms` unless the returned cancel is called first; an unref'd timer by default. */
  after?(run: () => void, ms: number): () => void;
}

const afterUnref = (run: () => void, ms: number): (() => void) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

interface Held {
  entry: InboxEntry;
  cancelExpiry: () => void;
  waiters: Set<(verdict: InboxVerdict) => void>;
}

const boundTo = (entry: InboxEntry, binding: RequestStateBinding) =>
  entry.principal === binding.principal &&
  entry.alias === binding.alias &&
  entry.argsDigest === binding.argsDigest;

/** Creates an inbox. */
export function createApprovalInbox(options: ApprovalInboxOptions): ApprovalInbox {
  const after = options.after ?? afterUnref;
  const held = new Map<string, Held>();
  const listeners = new Set<(event: InboxEvent) => void>();
  const emit = (type: InboxEvent['type'], entry: InboxEntry) => {
    for (const listener of listeners) {
      try {
        listener({ type, entry: { ...entry } });
      } catch {
        // A watcher's failure is its own; the inbox goes on.
      }
    }
  };
  const verdictOf = (entry: InboxEntry): InboxVerdict | undefined =>
    entry.status === 'pending' || entry.answer === undefined
      ? undefined
      : { outcome: entry.status, ...entry.answer };

  const expire = (id: string) => {
    const item = held.get(id);
    if (!item) return;
    held.delete(id);
    for (const wake of item.waiters) wake({ outcome: 'expired' });
    emit('expired', item.entry);
  };

  const claim = (item: Held, verdict: InboxVerdict): InboxVerdict => {
    item.cancelExpiry();
    held.delete(item.entry.id);
    emit('claimed', item.entry);
    return verdict;
  };

  return {
    submit(request) {
      if (held.size >= options.maxPending) {
        return { ok: false, reason: `the approval inbox is full (${options.maxPending} calls wait)` };
      }
      let mine = 0;
      for (const item of held.values()) if (item.entry.principal === request.principal) mine += 1;
      if (mine >= options.maxPerPrincipal) {
        return {
          ok: false,
          reason: `this principal already has ${options.maxPerPrincipal} calls waiting for approval`,
        };
      }
      const createdAt = options.now();
      const entry: InboxEntry = {
        ...request,
        id: randomBytes(12).toString('base64url'),
        createdAt,
        expiresAt: createdAt + options.ttlMs,
        status: 'pending',
      };
      held.set(entry.id, {
        entry,
        waiters: new Set(),
        cancelExpiry: after(() => expire(entry.id), options.ttlMs),
      });
      emit('added', entry);
      return { ok: true, entry: { ...entry } };
    },

    wait(id, binding, waitOptions = {}) {
      const item = held.get(id);
      if (!item || !boundTo(item.entry, binding)) return Promise.resolve({ outcome: 'unknown' });
      const ready = verdictOf(item.entry);
      if (ready) return Promise.resolve(claim(item, ready));
      const { holdMs, signal } = waitOptions;
      if (signal?.aborted) return Promise.resolve({ outcome: 'pending' });
      return new Promise<InboxWait>((resolve) => {
        let cancelHold = () => {};
        const done = (result: InboxWait) => {
          item.waiters.delete(onVerdict);
          cancelHold();
          signal?.removeEventListener('abort', onAbort);
          resolve(result);
        };
        const onVerdict = (verdict: InboxVerdict) =>
          done(verdict.outcome === 'expired' ? verdict : claim(item, verdict));
        const onAbort = () => done({ outcome: 'pending' });
        item.waiters.add(onVerdict);
        signal?.addEventListener('abort', onAbort, { once: true });
        if (holdMs !== undefined) cancelHold = after(() => done({ outcome: 'pending' }), holdMs);
      });
    },

    decide(id, verdict, answer) {
      const item = held.get(id);
      if (!item) return { ok: false, reason: 'not-found' };
      if (item.entry.status !== 'pending') return { ok: false, reason: 'already-decided' };
      item.entry.status = verdict === 'approve' ? 'approved' : 'declined';
      item.entry.answer = { ...answer, at: options.now() };
      const ready = verdictOf(item.entry);
      emit(item.entry.status, item.entry);
      // Wake one waiter: it claims the verdict (the others, if any, find the entry gone).
      const [first] = item.waiters;
      if (ready && first) first(ready);
      return { ok: true, entry: { ...item.entry } };
    },

    withdraw(id) {
      const item = held.get(id);
      if (!item || item.entry.status !== 'pending') return;
      item.cancelExpiry();
      held.delete(id);
      emit('withdrawn', item.entry);
    },

    list: () => [...held.values()].map((item) => ({ ...item.entry })),
    get(id) {
      const item = held.get(id);
      return item ? { ...item.entry } : undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get size() {
      return held.size;
    },
    close() {
      for (const [id, item] of held) {
        item.cancelExpiry();
        expire(id);
      }
    },
  };
}
