import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database';
import { buildAccount, buildStagedVault } from '../factories';
import { migrateToLatest } from '../db/migrate';
import { REQUEST_TOO_SLOW } from '../http/body-timeout';
import { recordEvent } from '../events/event-log.repo';
import { type RunningServer, signInCookie, startServer } from './server-process';
import { type SignedIn, type TestContext, signIn, startTestApp } from './test-app';

interface StalledUpload {
  /** what the server sent back so far */
  received(): string;
  /** resolves when the server closed the connection */
  closed: Promise<void>;
  destroy(): void;
}

/** An upload whose client sends the headers and the first 10 kB of a 1 MB body, then nothing more. */
async function stalledUpload(port: number, cookie: string, vaultId: number): Promise<StalledUpload> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const boundary = 'wmstalled';
  const start =
    `--${boundary}\r\nContent-Disposition: form-data; name="vault_id"\r\n\r\n${vaultId}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="big.bin"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n`;
  socket.write(
    `POST /api/vaults/upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
      `Cookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: 1000000\r\n\r\n${start}${'x'.repeat(10_000)}`,
  );
  return { received: () => received, closed, destroy: () => socket.destroy() };
}

describe('request time-outs (REQUEST_TIMEOUT_SECONDS=1)', () => {
  let ctx: TestContext;
  let user: SignedIn;
  let port: number;
  beforeAll(async () => {
    ctx = await startTestApp('sqlite', { REQUEST_TIMEOUT_SECONDS: '1' });
    user = await signIn(ctx);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('answers a stalled upload 408 and closes its connection; nothing is saved', async () => {
    const vault = await buildStagedVault(ctx.database.db, { companyId: user.companyId });
    const upload = await stalledUpload(port, user.cookie, vault.id);
    await upload.closed;
    expect(upload.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(upload.received()).toContain(REQUEST_TOO_SLOW);
    const files = await ctx.database.db
      .selectFrom('attachments')
      .select('id')
      .where('vault_id', '=', vault.id)
      .execute();
    expect(files).toEqual([]);
  });

  it('keeps a live-update stream open past the request time-out, and it still delivers', async () => {
    const frames: string[] = [];
    let ended = false;
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/api/events', headers: { cookie: user.cookie } }, resolve)
        .on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => frames.push(chunk));
    res.on('close', () => (ended = true));

    // three times the request time-out, with the server checking for expired requests all along
    await new Promise((r) => setTimeout(r, 3000));
    expect(ended).toBe(false);
    await recordEvent(ctx.database.db, {
      companyId: user.companyId,
      userId: user.userId,
      kind: 'vault.added',
      entityType: 'vault',
      entityId: 424242,
    });
    const until = Date.now() + 5000;
    while (!frames.join('').includes('"entityId":424242') && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(frames.join('')).toContain('"entityId":424242');
    expect(ended).toBe(false);
    res.destroy();
  });
});

describe('shutdown of a real server process', () => {
  let server: RunningServer | undefined;
  let dir: string;
  afterAll(async () => {
    if (server && server.process.exitCode === null) server.process.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exits within the bound after SIGTERM although a client stalls halfway through an upload', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-shutdown-'));
    const url = `sqlite:${path.join(dir, 'shutdown.db')}`;
    const setup = openDatabase({ kind: 'sqlite', file: url.slice('sqlite:'.length) });
    await migrateToLatest(setup.db);
    const account = await buildAccount(setup.db);
    const vault = await buildStagedVault(setup.db, { companyId: account.companyId });
    await setup.close();

    server = await startServer(url, { SHUTDOWN_GRACE_SECONDS: '1' });
    const running = server;
    const cookie = await signInCookie(running.baseUrl, account.email, account.password);
    const upload = await stalledUpload(Number(new URL(running.baseUrl).port), cookie, vault.id);
    // the server is reading the body now (it has answered nothing yet)
    await new Promise((r) => setTimeout(r, 300));
    expect(upload.received()).toBe('');

    const exited = new Promise<number | null>((resolve) =>
      running.process.once('exit', (code) => resolve(code)),
    );
    const sentAt = Date.now();
    running.process.kill('SIGTERM');
    const code = await exited;
    const seconds = (Date.now() - sentAt) / 1000;
    console.log(`shutdown with a stalled upload: exited ${code} after ${seconds.toFixed(1)} s`);
    expect(code).toBe(0);
    expect(seconds).toBeLessThan(15);
    await upload.closed;
  }, 30_000);
});
