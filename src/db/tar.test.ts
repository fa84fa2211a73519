import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { extractTarGz } from './tar.js';

function header(name: string, size: number, type: '0' | '5' | '2'): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 'utf8');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\u000000', 257, 'ascii');
  return h;
}

function archive(entries: { name: string; type: '0' | '5' | '2'; body?: string }[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    parts.push(header(e.name, body.length, e.type), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

const dirs: string[] = [];
const tmp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flagpole-tar-'));
  dirs.push(dir);
  return path.join(dir, 'out');
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('extractTarGz', () => {
  it('unpacks directories and files, the leading slash of their names taken as the target', () => {
    const dir = tmp();
    const big = 'x'.repeat(1300);
    extractTarGz(
      archive([
        { name: '/global', type: '5' },
        { name: '/global/1213', type: '0', body: 'catalog' },
        { name: '/pg_wal/000001', type: '0', body: big },
        { name: 'PG_VERSION', type: '0', body: '17\n' },
      ]),
      dir,
    );
    expect(readFileSync(path.join(dir, 'global/1213'), 'utf8')).toBe('catalog');
    expect(readFileSync(path.join(dir, 'pg_wal/000001'), 'utf8')).toBe(big);
    expect(readFileSync(path.join(dir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(statSync(path.join(dir, 'global')).mode & 0o777).toBe(0o700);
  });

  it('keeps names that climb with `..` inside the directory, and refuses kinds it does not unpack', () => {
    const dir = tmp();
    extractTarGz(archive([{ name: '../../escape', type: '0', body: 'x' }]), dir);
    expect(readFileSync(path.join(dir, 'escape'), 'utf8')).toBe('x');
    expect(() => statSync(path.join(dir, '../escape'))).toThrow();
    expect(() => extractTarGz(archive([{ name: 'link', type: '2' }]), tmp())).toThrow(/kind this reader/);
  });
});
