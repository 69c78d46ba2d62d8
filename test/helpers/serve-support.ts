/** Shared helpers of the issue-5 end-to-end proofs: audit rows, span dumps, on-disk bytes and config files. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { stringify } from 'yaml';
import { createAuditLog, type AuditRecord } from '../../src/audit/index.ts';
import type { Gateway } from '../../src/app/index.ts';
import type { Store } from '../../src/store/index.ts';

/** The text content of a tool result, joined by newlines. */
export function resultText(result: CallToolResult): string {
  return result.content.map((c) => ('text' in c ? c.text : '')).join('\n');
}

/** Every audit record of a store, or of a running gateway once its journal is flushed, oldest first. */
export async function auditRecords(
  source: Store | Pick<Gateway, 'store' | 'flushAudit'>,
): Promise<AuditRecord[]> {
  const store = 'flushAudit' in source ? (await source.flushAudit(), source.store) : source;
  const log = createAuditLog(store);
  const records: AuditRecord[] = [];
  let cursor: string | null = null;
  do {
    const page = log.query({ order: 'asc', limit: 1000, ...(cursor === null ? {} : { cursor }) });
    records.push(...page.entries.map((e) => e.record));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return records;
}

/** A span as plain JSON: name, kind, ids, attributes, events, status, links and resource. */
export function spanDump(span: ReadableSpan): Record<string, unknown> {
  return {
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
    status: span.status,
    links: span.links,
    resource: span.resource.attributes,
  };
}

/** Every byte the SQLite database leaves on disk: the main file and its -wal and -shm companions. */
export function databaseBytes(dbPath: string): { file: string; bytes: Buffer }[] {
  const journals = readdirSync(path.dirname(dbPath))
    .filter((name) => name.startsWith(`${path.basename(dbPath)}-audit-journal-`))
    .map((name) => path.join(path.dirname(dbPath), name));
  return [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, ...journals]
    .filter((file) => existsSync(file))
    .map((file) => ({ file, bytes: readFileSync(file) }));
}

/** The files among `files` whose bytes contain `needle` as UTF-8 or UTF-16LE. */
export function filesContaining(files: { file: string; bytes: Buffer }[], needle: string): string[] {
  const forms = [Buffer.from(needle, 'utf8'), Buffer.from(needle, 'utf16le')];
  return files.filter(({ bytes }) => forms.some((form) => bytes.includes(form))).map(({ file }) => file);
}

/** Writes `doc` as `portcullis.yaml` in `dir` and returns its path. */
export function writeConfigFile(dir: string, doc: Record<string, unknown>): string {
  const file = path.join(dir, 'portcullis.yaml');
  writeFileSync(file, stringify(doc));
  return file;
}

/** A loopback HTTP forwarder in front of `target` that records the Authorization header of every request. */
export async function startHeaderRecorder(
  target: string,
): Promise<{ url: string; authorizations: string[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const authorizations: string[] = [];
  const server = createServer((request, response) => {
    authorizations.push(request.headers.authorization ?? '');
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: request.url,
        method: request.method,
        headers: { ...request.headers, host: upstream.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
