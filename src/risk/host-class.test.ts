import { describe, expect, it } from 'vitest';
import { classifyHost, extractHost } from './host-class.ts';
import type { TransportKind } from './host-class.ts';

describe('classifyHost (R-HOST-2)', () => {
  it.each<[TransportKind, string | null, string]>([
    ['stdio', 'http://10.0.0.1', 'STDIO'],
    ['stdio', null, 'STDIO'],
    ['streamable-http', null, 'PUBLIC'],
    ['streamable-http', '   ', 'PUBLIC'],
    ['streamable-http', 'not a url', 'PUBLIC'],
    ['streamable-http', 'localhost:8080', 'PUBLIC'],
    ['streamable-http', 'http://127.0.0.1:3000/mcp', 'LOOPBACK'],
    ['streamable-http', 'http://[::1]:8080', 'LOOPBACK'],
    ['streamable-http', 'http://LOCALHOST/mcp', 'LOOPBACK'],
    ['streamable-http', 'http://api.localhost/mcp', 'LOOPBACK'],
    ['streamable-http', 'http://user:pw@localhost:3000/x', 'LOOPBACK'],
    ['sse', 'http://127.0.0.2/', 'PUBLIC'],
    ['sse', 'http://0.0.0.0:8080', 'PUBLIC'],
    ['sse', 'http://localhost.evil.com', 'PUBLIC'],
    ['streamable-http', 'http://10.1.2.3', 'PRIVATE_LAN'],
    ['streamable-http', 'http://10.999.0.1', 'PRIVATE_LAN'],
    ['streamable-http', 'http://192.168.0.10:8080', 'PRIVATE_LAN'],
    ['streamable-http', 'http://172.16.0.1', 'PRIVATE_LAN'],
    ['streamable-http', 'http://172.31.255.255', 'PRIVATE_LAN'],
    ['streamable-http', 'http://172.15.0.1', 'PUBLIC'],
    ['streamable-http', 'http://172.32.0.1', 'PUBLIC'],
    ['streamable-http', 'http://169.254.169.254/latest', 'PRIVATE_LAN'],
    ['streamable-http', 'http://[fd00::1]:8080', 'PRIVATE_LAN'],
    ['streamable-http', 'http://[FC12:3::1]/', 'PRIVATE_LAN'],
    ['streamable-http', 'http://[fe80::1]/', 'PRIVATE_LAN'],
    ['streamable-http', 'http://[feb1::1]/', 'PRIVATE_LAN'],
    ['streamable-http', 'http://[fec0::1]/', 'PUBLIC'],
    ['streamable-http', 'http://[fd123::1]/', 'PUBLIC'],
    ['streamable-http', 'https://api.example.com/mcp', 'PUBLIC'],
    // java.net.URI refuses the space in the path, so the manual parse finds the host.
    ['streamable-http', 'http://localhost:8080/a b', 'LOOPBACK'],
    // The fragment ends the authority for URI parsing: this is localhost, not evil.com.
    ['streamable-http', 'http://localhost#@evil.com', 'LOOPBACK'],
  ])('%s %s → %s', (transport, url, expected) => {
    expect(classifyHost(transport, url)).toBe(expected);
  });
});

describe('extractHost', () => {
  it.each<[string, string | null]>([
    ['http://Example.COM:8080/x', 'example.com'],
    ['https://[2001:db8::1]:443/', '2001:db8::1'],
    ['//host.example/path', 'host.example'],
    ['http://', null],
    ['mailto:a@b.c', null],
    ['http://bad host/x', 'bad host'],
    ['http://a@b@localhost:1/', 'localhost'],
  ])('%s → %s', (url, host) => {
    expect(extractHost(url)).toBe(host);
  });
});
