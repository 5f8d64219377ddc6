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

describe('trusted proxies', () => {
  it('trusts no proxy by default, so X-Forwarded-For cannot fake the client address', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'on' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });
});
