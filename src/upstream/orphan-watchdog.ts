/**
 * Makes stdio upstream children die with the gateway, even on `kill -9`. Node has no parent-death signal, and a
 * child that ignores EOF on its stdin would outlive us. So the gateway starts one small `sh` watchdog with a pipe
 * on its stdin and tells it the pid of each child it spawns (and of each that exited). Nothing ever closes that
 * pipe but the gateway's own end: when the gateway dies, however it dies, the kernel closes it, the watchdog's
 * `read` hits EOF, and it sends SIGTERM, then SIGKILL two seconds later, to every child still listed.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const WATCHDOG_SCRIPT = `
pids=" "
while read -r op pid; do
  case "$op" in
    add) pids="$pids$pid " ;;
    del) pids=$(printf '%s' "$pids" | sed "s/ $pid / /") ;;
  esac
done
[ "$pids" = " " ] && exit 0
for pid in $pids; do kill -TERM "$pid" 2>/dev/null; done
sleep 2
for pid in $pids; do kill -KILL "$pid" 2>/dev/null; done
`;

/** Kills the listed children when the gateway process ends. */
export interface OrphanWatchdog {
  watch(pid: number): void;
  unwatch(pid: number): void;
  /** Ends the watchdog (children still listed are killed). */
  close(): void;
}

/** Creates the watchdog; it starts with the first watched pid. No-op where there is no POSIX shell. */
export function createOrphanWatchdog(): OrphanWatchdog {
  let child: ChildProcess | undefined;
  let closed = false;
  const write = (line: string) => {
    if (closed || process.platform === 'win32') return;
    if (!child) {
      child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT], { stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('error', () => {});
      child.stdin?.on('error', () => {});
      // Neither the watchdog nor its pipe may keep the gateway alive.
      child.unref();
      (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    }
    child.stdin?.write(line);
  };
  return {
    watch: (pid) => Number.isSafeInteger(pid) && pid > 1 && write(`add ${pid}\n`),
    unwatch: (pid) => Number.isSafeInteger(pid) && pid > 1 && write(`del ${pid}\n`),
    close() {
      if (closed) return;
      closed = true;
      child?.stdin?.end();
    },
  };
}
