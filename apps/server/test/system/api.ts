import type { buildTestApp } from '../helper';

type TestContext = Awaited<ReturnType<typeof buildTestApp>>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Signs in through the real login route and returns a caller bound to that session. */
export async function signIn(ctx: TestContext, account: string, password: string) {
  const login = await ctx.app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account, password } });
  const token = login.json().data?.token as string | undefined;
  if (!token) throw new Error(`sign-in failed for ${account}: ${login.body}`);
  return caller(ctx, token);
}

export function caller(ctx: TestContext, token: string) {
  const call = async (method: Method, url: string, payload?: unknown, lang = 'en-US') => {
    const response = await ctx.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'accept-language': lang },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    // answers are read field by field in assertions; their schemas are checked by the server itself
    // biome-ignore lint/suspicious/noExplicitAny: see above
    return { status: response.statusCode, body: response.json() as { code: number; message: string; data: any } };
  };
  return {
    token,
    get: (url: string) => call('GET', url),
    post: (url: string, body: unknown, lang?: string) => call('POST', url, body, lang),
    put: (url: string, body: unknown, lang?: string) => call('PUT', url, body, lang),
    del: (url: string, lang?: string) => call('DELETE', url, undefined, lang),
  };
}
export type Caller = ReturnType<typeof caller>;

/** The field names a 400/409 answer names. */
export const fieldsOf = (body: { data: { fields?: { field: string }[] } | null }) => (body.data?.fields ?? []).map((f) => f.field);

// biome-ignore lint/suspicious/noExplicitAny: envelopes are read field by field in assertions
export type Answer = { status: number; body: { code: number; message: string; data: any } };

/**
 * Calls from a network address (and a Host), signed in with `token` or not, in English: for the sign-in
 * suites, where the source of an attempt counts. `ctx` is read at each call (suites build it in beforeAll).
 */
export function fromAddress(ctx: () => TestContext, defaults: { ip: string; host?: string }) {
  return async (method: Method, url: string, options: { token?: string; body?: unknown; ip?: string } = {}): Promise<Answer> => {
    const response = await ctx().app.inject({
      method,
      url,
      remoteAddress: options.ip ?? defaults.ip,
      headers: {
        ...(defaults.host ? { host: defaults.host } : {}),
        'accept-language': 'en-US',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: response.json() };
  };
}
