import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person the test provider knows: the login typed on its sign-in form is the subject. */
export type ProviderUser = {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
  groups?: string[];
  /** Entra ID's "e-mail domain owner verified" optional claim */
  xms_edov?: boolean;
};

export type TestProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** the people it signs in, by subject; a test may change them between sign-ins */
  users: Map<string, ProviderUser>;
  close(): Promise<void>;
};

/**
 * A real OpenID Provider (`oidc-provider`, the certified Node.js implementation) on a port of its own:
 * one confidential client (code flow, PKCE required, client_secret_basic), its development sign-in and
 * consent forms, the claims of `users` in the ID token, and RP-initiated logout.
 */
export async function startProvider(options: {
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  users?: Record<string, ProviderUser>;
  /** seconds an ID token lives */
  idTokenTtl?: number;
}): Promise<TestProvider> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const users = new Map(Object.entries(options.users ?? {}));
  const clientId = 'atrium';
  const clientSecret = randomBytes(24).toString('base64url');
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified', 'xms_edov'],
      profile: ['name', 'preferred_username'],
      groups: ['groups'],
    },
    // the claims of the scopes asked go into the ID token itself, as Keycloak and Entra ID put them
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { IdToken: options.idTokenTtl ?? 60 },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    async findAccount(_ctx, sub) {
      const user = users.get(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...user }) };
    },
  });
  const callback = provider.callback();
  handler = (req, res) => void callback(req, res);
  return {
    issuer,
    clientId,
    clientSecret,
    users,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A cookie jar for one browser at one site: enough for the provider's interaction cookies. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(setCookie: string[] | string | undefined) {
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (!pair || at < 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(name: string) {
    return this.cookies.get(name);
  }
}

/**
 * Signs a person in at the provider as a browser would: follows the authorization URL's redirects,
 * posts the sign-in form (the login is the subject) and the consent form, and answers the address the
 * provider finally sends the browser to (Atrium's callback with the code, or with an error).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, jar = new CookieJar()): Promise<URL> {
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  let method: 'GET' | 'POST' = 'GET';
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    if (url.origin !== origin) return url;
    const response = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
    jar.store(response.headers.getSetCookie());
    method = 'GET';
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      await response.arrayBuffer();
      url = new URL(location, url);
      continue;
    }
    const html = await response.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[\s\S]*?<\/form>/.exec(html);
    if (!form?.[1]) throw new Error(`the provider answered ${response.status} without a form: ${html.slice(0, 300)}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(form[0])?.[1];
    url = new URL(form[1].replace(/&amp;/g, '&'), url);
    method = 'POST';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt: prompt ?? 'consent' });
  }
  throw new Error('the provider redirected too often');
}
