import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { constants, services } from '@quire/catalog';
import { defaults, serverArgs } from '@quire/base';
import { readConfig } from '../src/config.ts';

describe("the gateway's settings", () => {
  it('default to the shared defaults and the catalog', () => {
    const config = readConfig({ DATA_DIR: '/srv/quire' });
    expect(config).toMatchObject({
      port: defaults.gatewayPort,
      host: defaults.host,
      database: { file: '/srv/quire/quire.db' },
      resultsDir: '/srv/quire/results',
      redisUrl: null,
      resultTtlSeconds: constants.resultTtlSeconds,
      uploadLimitBytes: constants.uploadLimitMb * 1024 * 1024,
      rateLimitPerMinute: constants.rateLimitPerMinute,
      serviceUrls: {},
      smtp: null,
    });
    expect(config.serviceTimeoutMs).toBeGreaterThan(defaults.jobTimeoutMs);
  });

  it('wait for a service as long as its job may run, and a margin', () => {
    const margin = readConfig({}).serviceTimeoutMs - defaults.jobTimeoutMs;
    expect(readConfig({ JOB_TIMEOUT_MS: '5000' }).serviceTimeoutMs).toBe(5000 + margin);
  });

  it('take each service as a list of addresses', () => {
    const config = readConfig({
      [services['pdf-editor'].urlSetting]: 'http://10.0.0.1:3101/, http://10.0.0.2:3101',
      [services.image.urlSetting]: '',
    });
    expect(config.serviceUrls).toEqual({ 'pdf-editor': ['http://10.0.0.1:3101', 'http://10.0.0.2:3101'] });
  });

  it('refuse a bad value, naming the setting', () => {
    expect(() => readConfig({ JOB_TIMEOUT_MS: '2 minutes' })).toThrow(
      'Setting JOB_TIMEOUT_MS must be a whole number, not "2 minutes"',
    );
    expect(() => readConfig({ PORT: '0' })).toThrow('Setting PORT must be a port number, not "0"');
    expect(() => readConfig({ RATE_LIMIT_PER_MINUTE: 'many' })).toThrow(/^Setting RATE_LIMIT_PER_MINUTE /);
    // The address is not repeated: it may hold a password.
    const redis = () => readConfig({ REDIS_URL: 'http://:secret@cache:6379' });
    expect(redis).toThrow(/^Setting REDIS_URL must be a redis:\/\//);
    expect(redis).not.toThrow(/secret/);
  });

  it('stop the gateway at start, before it listens, naming the setting', () => {
    const run = spawnSync(process.execPath, serverArgs(join(import.meta.dirname, '..', 'src', 'main.ts')), {
      env: { PATH: process.env.PATH, JOB_TIMEOUT_MS: '90s', PORT: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('Setting JOB_TIMEOUT_MS must be a whole number, not "90s"');
    expect(run.stdout).not.toContain('listening');
  });
});
