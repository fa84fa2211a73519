import { OFREPProvider } from '@openfeature/ofrep-provider';
import { ErrorCode, OpenFeature } from '@openfeature/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { startTestServer, type TestServer } from '../../test/server.js';

const clientToken = `default:development.${'6'.repeat(56)}`;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: clientToken });
  const f = flags(server);
  await f.create('new-checkout');
  await f.addStrategy('new-checkout', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: 'new-checkout' },
    constraints: [{ contextName: 'country', operator: 'IN', values: ['NO'] }],
  });
  await f.enable('new-checkout', 'development');
  const one = (payload: { type: string; value: string }) => [
    { name: 'only', weight: 1000, weightType: 'variable', stickiness: 'default', payload },
  ];
  for (const [name, payload] of [
    ['greeting', { type: 'string', value: 'Hei' }],
    ['page-size', { type: 'number', value: '25' }],
    ['theme', { type: 'json', value: '{"dark":true}' }],
  ] as const) {
    await f.create(name);
    await f.setVariants(name, 'development', one(payload));
    await f.enable(name, 'development');
  }
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  await OpenFeature.setProviderAndWait(
    new OFREPProvider({ baseUrl: address, headers: [['Authorization', `Bearer ${clientToken}`]] }),
  );
});
afterAll(async () => {
  await OpenFeature.close();
  await server.close();
});

describe("OpenFeature's OFREP provider for Node against Flagpole", () => {
  it('reads booleans with the targeting decided here', async () => {
    const client = OpenFeature.getClient();
    const norway = await client.getBooleanDetails('new-checkout', false, {
      targetingKey: 'u1',
      country: 'NO',
    });
    expect(norway).toMatchObject({ value: true, reason: 'TARGETING_MATCH', variant: 'on' });
    expect(norway.flagMetadata).toMatchObject({ project: 'default', featureEnabled: true });
    const sweden = await client.getBooleanDetails('new-checkout', true, {
      targetingKey: 'u1',
      country: 'SE',
    });
    expect(sweden).toMatchObject({ value: false, reason: 'DEFAULT', variant: 'off' });
  });

  it('reads strings, numbers and objects from the payloads of variants', async () => {
    const client = OpenFeature.getClient();
    expect(await client.getStringDetails('greeting', 'Hello', { targetingKey: 'u1' })).toMatchObject({
      value: 'Hei',
      variant: 'only',
      reason: 'SPLIT',
    });
    expect(await client.getNumberValue('page-size', 10, { targetingKey: 'u1' })).toBe(25);
    expect(await client.getObjectValue('theme', {}, { targetingKey: 'u1' })).toEqual({ dark: true });
  });

  it('gets its default with TYPE_MISMATCH for another type, FLAG_NOT_FOUND for an unknown flag', async () => {
    const client = OpenFeature.getClient();
    const mismatch = await client.getNumberDetails('greeting', 7, { targetingKey: 'u1' });
    expect(mismatch).toMatchObject({ value: 7, errorCode: ErrorCode.TYPE_MISMATCH });
    const missing = await client.getBooleanDetails('no-such-flag', true, { targetingKey: 'u1' });
    expect(missing).toMatchObject({ value: true, errorCode: ErrorCode.FLAG_NOT_FOUND });
  });
});
