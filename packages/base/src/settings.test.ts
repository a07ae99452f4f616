import { describe, expect, it } from 'vitest';
import { constants, services } from '@quire/catalog';
import { defaults, readServiceConfig, readSettings, setting, signInOf, signInSettings } from './settings.ts';

describe("a service's settings", () => {
  it('default to the catalog and the shared defaults; an empty variable is no setting', () => {
    for (const env of [{}, { PORT: '', JOB_TIMEOUT_MS: '', UPLOAD_LIMIT_MB: '' }]) {
      expect(readServiceConfig('image', env)).toMatchObject({
        port: services.image.port,
        host: defaults.host,
        jobTimeoutMs: defaults.jobTimeoutMs,
        uploadLimitBytes: constants.uploadLimitMb * 1024 * 1024,
        queueMaxWaiting: defaults.queueMaxWaiting,
      });
    }
    expect(readServiceConfig('office', { PORT: '4000', JOB_TIMEOUT_MS: '300', UPLOAD_LIMIT_MB: '2' })).toMatchObject({
      port: 4000,
      jobTimeoutMs: 300,
      uploadLimitBytes: 2 * 1024 * 1024,
    });
  });

  it('refuse a bad value, naming the setting and the value', () => {
    expect(() => readServiceConfig('pdf-editor', { JOB_TIMEOUT_MS: '2m' })).toThrow(
      'Setting JOB_TIMEOUT_MS must be a whole number, not "2m"',
    );
    expect(() => readServiceConfig('pdf-editor', { JOB_TIMEOUT_MS: '0' })).toThrow(
      'Setting JOB_TIMEOUT_MS must be at least 1, not "0"',
    );
    expect(() => readServiceConfig('pdf-editor', { PORT: '70000' })).toThrow('Setting PORT must be a port number');
    expect(() => readServiceConfig('pdf-editor', { LOG_LEVEL: 'loud' })).toThrow(/^Setting LOG_LEVEL must be one of/);
  });

  it('name every bad setting at once', () => {
    expect(() => readServiceConfig('image', { UPLOAD_LIMIT_MB: '-1', QUEUE_CONCURRENCY: 'all' })).toThrow(
      /^Setting UPLOAD_LIMIT_MB .*\nSetting QUEUE_CONCURRENCY /,
    );
  });
});

describe('addresses', () => {
  const schema = { REDIS_URL: setting.address(['redis:', 'rediss:'], 'a redis:// address') };

  it('take only their schemes, and a refusal does not repeat the value, which may hold a password', () => {
    expect(readSettings(schema, { REDIS_URL: 'rediss://h:6379' }).REDIS_URL).toBe('rediss://h:6379');
    expect(readSettings(schema, {}).REDIS_URL).toBeUndefined();
    const refusal = () => readSettings(schema, { REDIS_URL: 'http://user:secret@h' });
    expect(refusal).toThrow('Setting REDIS_URL must be a redis:// address');
    expect(refusal).not.toThrow(/secret/);
  });
});

describe('sign-in', () => {
  it("defaults to the demo project and a project's own auth domain", () => {
    expect(signInOf(readSettings(signInSettings, {}))).toEqual({
      projectId: defaults.firebaseProjectId,
      apiKey: '',
      authDomain: `${defaults.firebaseProjectId}.firebaseapp.com`,
      emulatorHost: null,
    });
    const real = { FIREBASE_PROJECT_ID: 'acme', FIREBASE_API_KEY: 'k', FIREBASE_AUTH_DOMAIN: 'login.acme.example' };
    expect(signInOf(readSettings(signInSettings, real))).toMatchObject({ authDomain: 'login.acme.example' });
  });
});
