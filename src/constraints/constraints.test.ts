import { describe, expect, it } from 'vitest';
import { CLIENT_TOKEN, callers, server, useFeatureModelServer } from '../../test/feature-model.js';
import { countEvents } from '../../test/server.js';

useFeatureModelServer();

const validate = (body: unknown, options: { token?: string | null; contentType?: string | null } = {}) =>
  server.request('POST', '/api/admin/constraints/validate', {
    token: options.token === null ? undefined : (options.token ?? server.adminToken),
    body,
    contentType: options.contentType,
  });

describe('E10 POST /api/admin/constraints/validate', () => {
  it('answers 204 with no body for valid constraints, to admins, Editors and Viewers', async () => {
    const events = await countEvents(server);
    for (const token of [server.adminToken, callers.editor, callers.viewer]) {
      const res = await validate(
        { contextName: 'userId', operator: 'IN', values: ['alice', 'bob'] },
        { token },
      );
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    }
    const valid = [
      { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], caseInsensitive: true },
      { contextName: 'userId', operator: 'NUM_GTE', value: '-5.5' },
      { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-01-01' },
      { contextName: 'appName', operator: 'SEMVER_LT', value: '1.2.3-beta.1', inverted: true },
      {
        contextName: 'environment',
        operator: 'NOT_IN',
        values: ['x'],
        inverted: false,
        caseInsensitive: false,
      },
    ];
    for (const body of valid) expect((await validate(body)).status, JSON.stringify(body)).toBe(204);
    expect(await countEvents(server)).toBe(events);
  });

  it('answers 400 naming the field and why', async () => {
    const cases: [unknown, string][] = [
      [{ operator: 'IN', values: ['a'] }, 'contextName'],
      [{ contextName: 'userId', values: ['a'] }, 'operator'],
      [{ contextName: 'userId', operator: 'in', values: ['a'] }, 'operator'],
      [{ contextName: 'userId', operator: 'FOO', values: ['a'] }, 'operator'],
      [{ contextName: 'userId', operator: 'IN', values: [] }, 'values'],
      [{ contextName: 'userId', operator: 'IN' }, 'values'],
      [{ contextName: 'userId', operator: 'IN', values: 'a' }, 'values'],
      [{ contextName: 'userId', operator: 'IN', values: ['a'], inverted: 'true' }, 'inverted'],
      [{ contextName: 'userId', operator: 'IN', values: ['a'], caseInsensitive: 0 }, 'caseInsensitive'],
      [{ contextName: 'userId', operator: 'IN', values: ['a'], extra: true }, 'extra'],
      [{ contextName: 'userId', operator: 'NUM_EQ', value: 'abc' }, 'value'],
      [{ contextName: 'userId', operator: 'NUM_EQ', value: '' }, 'value'],
      [{ contextName: 'userId', operator: 'NUM_EQ' }, 'value'],
      [{ contextName: 'userId', operator: 'DATE_BEFORE', value: '2024-13-45' }, 'value'],
      [{ contextName: 'userId', operator: 'SEMVER_EQ', value: 'v1.2.3' }, 'value'],
      [{ contextName: 'userId', operator: 'SEMVER_GT', value: '1.2' }, 'value'],
      [{ contextName: 'x'.repeat(101), operator: 'IN', values: ['a'] }, 'contextName'],
    ];
    for (const [body, field] of cases) {
      const res = await validate(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
      expect(
        res.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(field);
      expect(res.body.message.length).toBeGreaterThan(20);
    }
    for (const body of ['"IN"', '[]', 'null']) {
      expect((await validate(body)).status, body).toBe(400);
    }
    expect((await validate('{"contextName": ')).status).toBe(400);
  });

  it('refuses a context field that does not exist, naming it', async () => {
    const res = await validate({ contextName: 'planet', operator: 'IN', values: ['earth'] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"planet"');
    expect(res.body.details[0].path).toBe('contextName');
  });

  it('enforces legal values, and follows changes to them at once', async () => {
    const created = await server.request('POST', '/api/admin/context', {
      token: server.adminToken,
      body: { name: 'tier', legalValues: [{ value: '1' }, { value: '2' }] },
    });
    expect(created.status).toBe(201);
    expect((await validate({ contextName: 'tier', operator: 'NUM_EQ', value: '2' })).status).toBe(204);
    const refused = await validate({ contextName: 'tier', operator: 'NUM_EQ', value: '3' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('"3" is not a legal value');
    expect((await validate({ contextName: 'tier', operator: 'IN', values: ['1', '3'] })).status).toBe(400);

    const put = await server.request('PUT', '/api/admin/context/tier', {
      token: server.adminToken,
      body: { legalValues: [{ value: '1' }, { value: '3' }] },
    });
    expect(put.status).toBe(200);
    expect((await validate({ contextName: 'tier', operator: 'NUM_EQ', value: '3' })).status).toBe(204);
    expect((await validate({ contextName: 'tier', operator: 'NUM_EQ', value: '2' })).status).toBe(400);
  });

  it('answers 401 without credentials, 403 to client tokens, 415 without JSON', async () => {
    const body = { contextName: 'userId', operator: 'IN', values: ['a'] };
    expect((await validate(body, { token: null })).status).toBe(401);
    expect((await validate(body, { token: 'nonsense' })).status).toBe(401);
    const client = await validate(body, { token: CLIENT_TOKEN });
    expect(client.status).toBe(403);
    expect(client.body.name).toBe('NoAccessError');
    const plain = await validate(JSON.stringify(body), { contentType: 'text/plain' });
    expect(plain.status).toBe(415);
    expect(plain.body.name).toBe('ContentTypeError');
    const none = await server.request('POST', '/api/admin/constraints/validate', {
      token: server.adminToken,
    });
    expect(none.status).toBe(415);
    expect((await validate(body, { contentType: 'application/json; charset=utf-8' })).status).toBe(204);
    // authentication before the content type, and before the body
    expect((await validate('x', { token: null, contentType: 'text/plain' })).status).toBe(401);
    expect((await validate({ operator: 'FOO' }, { token: CLIENT_TOKEN })).status).toBe(403);
  });
});
