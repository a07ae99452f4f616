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
