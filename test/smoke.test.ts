import { describe, expect, it } from 'vitest';
import ivm from 'isolated-vm';
import Database from 'better-sqlite3';

describe('native modules', () => {
  it('runs code in an isolate', () => {
    const isolate = new ivm.Isolate({ memoryLimit: 16 });
    const context = isolate.createContextSync();
    expect(context.evalSync('1 + 2')).toBe(3);
    isolate.dispose();
  });
  it('opens SQLite', () => {
    const db = new Database(':memory:');
    expect(db.prepare('select 41 + 1 as n').get()).toEqual({ n: 42 });
    db.close();
  });
});
