/** Atomic spec-file writes (docs/rules/tool-specs.md, R-SPEC-6): temp file in the same directory, fsync, rename, fsync dir. */
import { randomUUID } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Replaces `path` with `text` atomically: readers see the old or the new file, never a torn one. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  // A dot-prefixed name ending in .tmp: directory loaders (which read *.json) never pick it up.
  const temp = join(dir, `.${basename(path)}.${randomUUID()}.tmp`);
  let mode = 0o644;
  try {
    mode = (await stat(path)).mode & 0o777;
  } catch {
    // a new file keeps the default mode
  }
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (cause) {
    await handle.close();
    // The write failure is what the caller needs; a temp file left behind is hidden from loaders (dot, .tmp).
    await unlink(temp).catch(() => undefined);
    throw cause;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (cause) {
    // As above: report the rename failure, not the clean-up's.
    await unlink(temp).catch(() => undefined);
    throw cause;
  }
  // Make the rename itself durable; some platforms cannot fsync a directory, which is not an error there.
  try {
    const dirHandle = await open(dir, 'r');
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  } catch {
    // Best effort: the rename is done; only its durability across a power loss is not guaranteed here.
  }
}
