import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, HOST: '127.0.0.1', MQTT_WS_PORT: 8083, CAPTCHA: true, SEED: 'demo', LOG_LEVEL: 'info' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR.endsWith('data')).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['MQTT_WS_PORT', '-1'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['DATABASE_URL', 'not a url'],
    ['CAPTCHA', 'maybe'],
    ['SEED', 'lots'],
    ['LOG_LEVEL', 'loud'],
    ['REDIS_URL', 'http://localhost'],
    ['TRUST_PROXY', 'everyone; drop'],
    ['SMTP_URL', 'http://mail.example'],
    ['LOGIN_RATE_LIMIT', 'many'],
    ['LOGIN_RATE_LIMIT', '0'],
    ['ADMIN_ACCOUNT', 'a b'],
    ['REDIS_PREFIX', 'a*b'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', 'lots'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message.startsWith(`Invalid configuration: ${name}=`)).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ PORT: 8080, DATABASE_URL: undefined });
  });
});

describe('seeding and scale-out defaults', () => {
  it('seeds demo data on the embedded database and nothing on PostgreSQL unless asked', () => {
    expect(loadConfig({}).SEED).toBe('demo');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/atrium' }).SEED).toBe('none');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/atrium', SEED: 'demo' }).SEED).toBe('demo');
    expect(loadConfig({ SEED: 'none' }).SEED).toBe('none');
  });

  it('serves the API docs to anyone on the embedded database, to signed-in callers on PostgreSQL unless asked', () => {
    expect(loadConfig({}).API_DOCS).toBe('on');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/atrium' }).API_DOCS).toBe('signed-in');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/atrium', API_DOCS: 'on' }).API_DOCS).toBe('on');
    expect(loadConfig({ API_DOCS: 'off' }).API_DOCS).toBe('off');
    expect(() => loadConfig({ API_DOCS: 'maybe' })).toThrow(/API_DOCS/);
  });

  it('namespaces Redis by the database name, whatever the URL says besides', () => {
    const a = loadConfig({ DATABASE_URL: 'postgres://app@10.0.0.5:5432/atrium_prod' });
    const b = loadConfig({ DATABASE_URL: 'postgresql://app:secret@db.internal/atrium_prod?sslmode=require' });
    expect(a.REDIS_PREFIX).toBe('atrium:atrium_prod:');
    expect(b.REDIS_PREFIX).toBe(a.REDIS_PREFIX);
    expect(loadConfig({ DATABASE_URL: 'postgres://app@10.0.0.5/atrium_staging' }).REDIS_PREFIX).not.toBe(a.REDIS_PREFIX);
    expect(loadConfig({ REDIS_PREFIX: 'eu-1' }).REDIS_PREFIX).toBe('eu-1:');
    expect(loadConfig({ DATA_DIR: '/srv/a' }).REDIS_PREFIX).not.toBe(loadConfig({ DATA_DIR: '/srv/b' }).REDIS_PREFIX);
  });

  it('sizes the database pools from DATABASE_POOL_SIZE', () => {
    expect(loadConfig({}).DATABASE_POOL_SIZE).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '40' }).DATABASE_POOL_SIZE).toBe(40);
  });
});

describe('trusted proxies', () => {
  it('trusts no proxy by default, so X-Forwarded-For cannot fake the client address', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'on' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });
});
