import { createServer, type Server } from 'node:net';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { makeGateway } from './helpers.ts';

describe('contact and newsletter', () => {
  it('stores a contact message and names a bad field', async () => {
    const { app, db } = await makeGateway();
    const ok = await request(app)
      .post('/api/v1/contact')
      .send({ name: ' Ada ', email: 'Ada@Example.org', message: 'Hello <b>there</b>' });
    expect(ok.status).toBe(201);
    const rows = await db.selectFrom('contact_messages').selectAll().execute();
    expect(rows).toMatchObject([{ name: 'Ada', email: 'ada@example.org', message: 'Hello <b>there</b>' }]);

    const bad = await request(app).post('/api/v1/contact').send({ name: 'Ada', email: 'not-an-address', message: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_option');
    expect(bad.body.error.message).toContain('"email"');
    const empty = await request(app).post('/api/v1/contact').send({ email: 'a@b.org', message: 'x' });
    expect(empty.body.error.message).toContain('"name"');
    expect(await db.selectFrom('contact_messages').selectAll().execute()).toHaveLength(1);
  });

  it('answers a filled honeypot like a person but keeps nothing', async () => {
    const { app, db } = await makeGateway();
    const res = await request(app)
      .post('/api/v1/contact')
      .send({ name: 'Bot', email: 'bot@example.org', message: 'buy', website: 'http://spam.example' });
    expect(res.status).toBe(201);
    expect(await db.selectFrom('contact_messages').selectAll().execute()).toHaveLength(0);
  });

  it('subscribes an address once: 201, then 200', async () => {
    const { app, db } = await makeGateway();
    const first = await request(app).post('/api/v1/newsletter').send({ email: 'reader@example.org' });
    const again = await request(app).post('/api/v1/newsletter').send({ email: 'READER@example.org ' });
    expect([first.status, again.status]).toEqual([201, 200]);
    const rows = await db.selectFrom('newsletter').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.unsubscribe_token).toMatch(/^[0-9a-f]{32}$/);
    const bad = await request(app).post('/api/v1/newsletter').send({ email: '' });
    expect(bad.status).toBe(400);

    const token = rows[0]!.unsubscribe_token;
    const gone = await request(app).get(`/api/v1/newsletter/unsubscribe?token=${token}`);
    expect(gone.body).toEqual({ unsubscribed: true });
    expect(await db.selectFrom('newsletter').selectAll().execute()).toHaveLength(0);
    expect((await request(app).get(`/api/v1/newsletter/unsubscribe?token=${token}`)).status).toBe(404);
    expect((await request(app).get('/api/v1/newsletter/unsubscribe?token=../x')).status).toBe(404);
  });
});

describe('site settings', () => {
  it('states the limits the server enforces', async () => {
    const { app } = await makeGateway({ UPLOAD_LIMIT_MB: '7', RESULT_TTL_SECONDS: '600' });
    const res = await request(app).get('/api/v1/settings');
    expect(res.body).toEqual({ uploadLimitMb: 7, resultTtlSeconds: 600 });
  });
});

/** A minimal SMTP server on loopback that keeps each message it is given. */
async function smtpServer(): Promise<{ url: string; messages: string[]; close: () => Promise<void> }> {
  const messages: string[] = [];
  const server: Server = createServer((socket) => {
    socket.setEncoding('utf8');
    let buffer = '';
    let body: string[] | undefined;
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (body) {
          if (line === '.') {
            messages.push(body.join('\n'));
            body = undefined;
            socket.write('250 queued\r\n');
          } else body.push(line);
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'DATA') {
          body = [];
          socket.write('354 go on\r\n');
        } else if (command === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('contact messages by e-mail', () => {
  it('sends each stored message on to the configured address, replying to the sender', async () => {
    const smtp = await smtpServer();
    try {
      const { app, db } = await makeGateway({ SMTP_URL: smtp.url, CONTACT_TO: 'team@quire.example' });
      const res = await request(app)
        .post('/api/v1/contact')
        .send({ name: 'Ada Lovelace', email: 'ada@example.org', message: 'The split tool is great.' });
      expect(res.status).toBe(201);
      expect(smtp.messages).toHaveLength(1);
      const mail = smtp.messages[0]!;
      expect(mail).toMatch(/^To: team@quire\.example$/m);
      expect(mail).toMatch(/^Reply-To: Ada Lovelace <ada@example\.org>$/m);
      expect(mail).toContain('The split tool is great.');
      expect(await db.selectFrom('contact_messages').selectAll().execute()).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });

  it('keeps the message and answers the visitor when the mail server is down', async () => {
    const smtp = await smtpServer();
    await smtp.close();
    const { app, db } = await makeGateway({ SMTP_URL: smtp.url, CONTACT_TO: 'team@quire.example' });
    const res = await request(app).post('/api/v1/contact').send({ name: 'A', email: 'a@b.org', message: 'hi' });
    expect(res.status).toBe(201);
    expect(await db.selectFrom('contact_messages').selectAll().execute()).toHaveLength(1);
  });

  it('refuses incomplete mail settings at boot', async () => {
    await expect(makeGateway({ SMTP_URL: 'smtp://127.0.0.1:25' })).rejects.toThrow('CONTACT_TO');
    await expect(makeGateway({ SMTP_URL: 'http://x', CONTACT_TO: 'a@b.org' })).rejects.toThrow('SMTP_URL');
  });
});
