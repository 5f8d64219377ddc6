import { type SQL, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/client';
import { LOCKOUT } from '../src/modules/auth/login.service';
import { STEP_UP_MS } from '../src/modules/auth/mfa.service';
import { CHALLENGE_TTL_MS } from '../src/modules/auth/passkey.service';
import { buildTestApp, engines, withoutSecondFactors } from './helper';
import { SoftAuthenticator } from './soft-authenticator';
import { type Answer, fromAddress } from './system/api';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;

const fieldsOf = (answer: Answer) => (answer.body.data?.fields as { field: string }[] | undefined)?.map((f) => f.field);
/** The host the tests' requests name: the relying party is taken from it (no WEBAUTHN_ORIGIN set). */
const HOST = 'atrium.test';
const ORIGIN = `http://${HOST}`;

// Passkeys (docs/adr/050-passkeys.md) against real WebAuthn data: a software authenticator makes ES256
// credentials and signs assertions as a security key would; only the server under test checks them.
describe.each(engines)('passkeys on %s', (engine) => {
  let ctx: Ctx;
  const call = fromAddress(() => ctx, { ip: '10.8.0.1', host: HOST });
  /** Rows of hq, the user's tenant (the login log is under row-level security). */
  const inHq = async <T>(text: SQL) => {
    const [tenant] = await ctx.database.query<{ id: number }>(`select id::int from tenants where code = 'hq'`);
    return withTenant(ctx.database.db, tenant?.id ?? 0, async (tx) => ((await tx.execute(text)) as unknown as { rows: T[] }).rows);
  };
  const login = (account: string, password: string, ip?: string) =>
    call('POST', '/api/system/user/login', { body: { account, password }, ip });
  async function passwordToken(account: string, password: string) {
    const answer = await login(account, password);
    expect(answer.body.data.token, JSON.stringify(answer.body)).toEqual(expect.any(String));
    return answer.body.data.token as string;
  }

  /** Adds a passkey of `authenticator` to the session's account; the answer. */
  async function addPasskey(token: string, authenticator: SoftAuthenticator, name = 'Security key', origin = ORIGIN) {
    const options = await call('POST', '/api/user/mfa/webauthn/register/options', { token });
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const response = authenticator.create(options.body.data, origin);
    return call('POST', '/api/user/mfa/webauthn/register', { token, body: { name, response } });
  }

  /** The password step, then the passkey step's options: the mfaToken and the options. */
  async function beginSignIn(account: string, password: string, ip?: string) {
    const first = await login(account, password, ip);
    expect(first.body.data.mfa).toBe('required');
    const mfaToken = first.body.data.mfaToken as string;
    const options = await call('POST', '/api/system/user/login/mfa/webauthn/options', { body: { mfaToken }, ip });
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    return { mfaToken, options: options.body.data };
  }
  const finishSignIn = (mfaToken: string, response: unknown, ip?: string) =>
    call('POST', '/api/system/user/login/mfa/webauthn/verify', { body: { mfaToken, response }, ip });

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await ctx?.close();
  });
  beforeEach(() => withoutSecondFactors(ctx));

  it('adds a passkey (packed self-attestation and none), lists it, and signs in with it as the second step', async () => {
    const token = await passwordToken('user', 'User@123456');
    const key = new SoftAuthenticator({ attestation: 'packed' });
    const added = await addPasskey(token, key, 'YubiKey');
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    // the first second factor of the account: ten recovery codes, once
    expect(added.body.data.recoveryCodes).toHaveLength(10);
    const phone = new SoftAuthenticator({ attestation: 'none', counter: false });
    const second = await addPasskey(token, phone, 'Phone');
    expect(second.status).toBe(200);
    expect(second.body.data.recoveryCodes).toBeNull();
    const listed = await call('GET', '/api/user/mfa', { token });
    expect(listed.body.data.factors).toEqual([
      { kind: 'webauthn', id: added.body.data.id, name: 'YubiKey', createTime: expect.any(String), lastUsedAt: null },
      { kind: 'webauthn', id: second.body.data.id, name: 'Phone', createTime: expect.any(String), lastUsedAt: null },
    ]);
    expect(listed.body.data.recoveryCodesLeft).toBe(10);
    // one factor row for the passkeys, with no secret; the public key stored, nothing private
    expect(await ctx.database.query(`select kind, secret from account_factors`)).toEqual([{ kind: 'webauthn', secret: '' }]);

    // the password alone no longer signs in: the methods name the passkey
    const first = await login('user', 'User@123456');
    expect(first.body.data).toEqual({ mfa: 'required', mfaToken: expect.any(String), methods: ['webauthn', 'recovery'] });
    const { mfaToken, options } = await beginSignIn('user', 'User@123456');
    expect(options.rpId).toBe(HOST);
    expect(options.allowCredentials).toHaveLength(2);
    const signedIn = await finishSignIn(mfaToken, key.get(options, ORIGIN));
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const info = await call('POST', '/api/system/user/userInfoLogin', { token: signedIn.body.data.token });
    expect(info.body.data).toMatchObject({ accountId: 'user', tenantCode: 'hq' });
    // the counter is kept; the authenticator without one (always 0) signs in too
    const [kept] = await ctx.database.query<{ sign_count: string }>(`select sign_count from account_passkeys where name = 'YubiKey'`);
    expect(Number(kept?.sign_count)).toBe(1);
    const again = await beginSignIn('user', 'User@123456');
    expect((await finishSignIn(again.mfaToken, phone.get(again.options, ORIGIN))).status).toBe(200);
    const log = await inHq<{ reason: string }>(
      sql`select reason from login_logs where account = 'user' and result = 'success' order by id desc limit 1`,
    );
    expect(log).toEqual([{ reason: 'second factor: webauthn' }]);
  });

  it('refuses a wrong challenge, a replayed one, an expired one, another origin and a counter that did not grow', async () => {
    const token = await passwordToken('user', 'User@123456');
    const key = new SoftAuthenticator();
    expect((await addPasskey(token, key)).status).toBe(200);

    // a challenge the server never gave
    const wrong = await beginSignIn('user', 'User@123456');
    const refused = await finishSignIn(wrong.mfaToken, key.get({ ...wrong.options, challenge: 'bm90LWEtY2hhbGxlbmdl' }, ORIGIN));
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused)).toEqual(['response']);
    // the challenge went with the refusal: the right assertion to it is refused now too
    expect((await finishSignIn(wrong.mfaToken, key.get(wrong.options, ORIGIN))).status).toBe(400);

    // replayed: an assertion that signed in once does not sign in again, not even with a new mfaToken
    const first = await beginSignIn('user', 'User@123456');
    const assertion = key.get(first.options, ORIGIN);
    expect((await finishSignIn(first.mfaToken, assertion)).status).toBe(200);
    const next = await beginSignIn('user', 'User@123456');
    expect((await finishSignIn(next.mfaToken, assertion)).status).toBe(400);

    // expired by the app's clock: the sign-in's challenge, with its mfaToken (1021)
    const stale = await beginSignIn('user', 'User@123456');
    ctx.clock.advance(CHALLENGE_TTL_MS + 1000);
    expect((await finishSignIn(stale.mfaToken, key.get(stale.options, ORIGIN))).body.code).toBe(1021);

    // signed at another origin (a look-alike site relaying the challenge)
    const phished = await beginSignIn('user', 'User@123456');
    expect((await finishSignIn(phished.mfaToken, key.get(phished.options, 'http://atrium-login.example'))).status).toBe(400);

    // a cloned authenticator: its counter is behind the one last seen
    const cloned = await beginSignIn('user', 'User@123456');
    const credential = key.credentials[0];
    if (!credential) throw new Error('no credential');
    credential.counter = 0;
    expect((await finishSignIn(cloned.mfaToken, key.get(cloned.options, ORIGIN))).status).toBe(400);
    credential.counter = 100;
    const fine = await beginSignIn('user', 'User@123456');
    expect((await finishSignIn(fine.mfaToken, key.get(fine.options, ORIGIN))).status).toBe(200);

    // a registration at another origin, or to a challenge already used, adds nothing
    const fresh = await beginSignIn('user', 'User@123456');
    const session = (await finishSignIn(fresh.mfaToken, key.get(fresh.options, ORIGIN))).body.data.token as string;
    const elsewhere = await addPasskey(session, new SoftAuthenticator(), 'Elsewhere', 'http://atrium-login.example');
    expect(fieldsOf(elsewhere)).toEqual(['response']);
    const options = await call('POST', '/api/user/mfa/webauthn/register/options', { token: session });
    const response = new SoftAuthenticator().create(options.body.data, ORIGIN);
    expect((await call('POST', '/api/user/mfa/webauthn/register', { token: session, body: { name: 'Once', response } })).status).toBe(200);
    const twice = await call('POST', '/api/user/mfa/webauthn/register', { token: session, body: { name: 'Twice', response } });
    expect(fieldsOf(twice)).toEqual(['response']);
    // a name is needed
    const unnamed = await call('POST', '/api/user/mfa/webauthn/register', { token: session, body: { name: ' ', response } });
    expect(fieldsOf(unnamed)).toEqual(['name']);
    expect((await call('GET', '/api/user/mfa', { token: session })).body.data.factors.map((f: { name: string }) => f.name)).toEqual([
      'Security key',
      'Once',
    ]);
  });

  it("refuses another account's passkey and a removed one; removing needs a recent second factor", async () => {
    const userToken = await passwordToken('user', 'User@123456');
    const acmeToken = await passwordToken('acme', 'Acme@123456');
    const userKey = new SoftAuthenticator();
    const acmeKey = new SoftAuthenticator();
    const spare = new SoftAuthenticator();
    expect((await addPasskey(userToken, userKey, 'Main')).status).toBe(200);
    const spareId = (await addPasskey(userToken, spare, 'Spare')).body.data.id as number;
    expect((await addPasskey(acmeToken, acmeKey)).status).toBe(200);

    // acme's passkey answering the user's sign-in: it is not among the user's
    const mine = await beginSignIn('user', 'User@123456');
    const foreign = acmeKey.get(mine.options, ORIGIN, acmeKey.credentials[0]);
    expect((await finishSignIn(mine.mfaToken, foreign)).status).toBe(400);
    // nor can anyone remove another account's passkey by its id
    const acmeId = (await call('GET', '/api/user/mfa', { token: acmeToken })).body.data.factors[0].id as number;
    expect((await call('DELETE', `/api/user/mfa/webauthn/${acmeId}`, { token: userToken })).status).toBe(404);

    // removing is a change of factors: asked again once the last proof is older than five minutes
    ctx.clock.advance(STEP_UP_MS + 1000);
    expect((await call('DELETE', `/api/user/mfa/webauthn/${spareId}`, { token: userToken })).body.code).toBe(1022);
    const stepUp = await call('POST', '/api/user/mfa/webauthn/options', { token: userToken });
    const verified = await call('POST', '/api/user/mfa/verify', {
      token: userToken,
      body: { method: 'webauthn', response: userKey.get(stepUp.body.data, ORIGIN) },
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect((await call('DELETE', `/api/user/mfa/webauthn/${spareId}`, { token: userToken })).status).toBe(200);

    // the removed passkey signs nothing in; the other one still does
    const after = await beginSignIn('user', 'User@123456');
    expect(after.options.allowCredentials).toHaveLength(1);
    expect((await finishSignIn(after.mfaToken, spare.get(after.options, ORIGIN, spare.credentials[0]))).status).toBe(400);
    const ok = await beginSignIn('user', 'User@123456');
    expect((await finishSignIn(ok.mfaToken, userKey.get(ok.options, ORIGIN))).status).toBe(200);
  });

  it('counts refused assertions on the sign-in locks, as wrong passwords', async () => {
    const token = await passwordToken('user', 'User@123456');
    const key = new SoftAuthenticator();
    expect((await addPasskey(token, key)).status).toBe(200);
    const stranger = new SoftAuthenticator();
    const ip = '10.8.5.5';
    const { mfaToken } = await beginSignIn('user', 'User@123456', ip);
    let last: Answer | undefined;
    for (let i = 1; i <= LOCKOUT.sourceThreshold; i++) {
      const options = await call('POST', '/api/system/user/login/mfa/webauthn/options', { body: { mfaToken }, ip });
      stranger.create({ challenge: 'eA', rp: { id: HOST }, user: { id: 'eA' } }, ORIGIN);
      last = await finishSignIn(mfaToken, stranger.get(options.body.data, ORIGIN, stranger.credentials[i - 1]), ip);
      if (i < LOCKOUT.sourceThreshold) expect(last.status).toBe(400);
    }
    expect(last?.body.code).toBe(1003);
    // the pending sign-in ended with the lock, and the password from here is locked too
    expect((await call('POST', '/api/system/user/login/mfa/webauthn/options', { body: { mfaToken }, ip })).body.code).toBe(1021);
    expect((await login('user', 'User@123456', ip)).body.code).toBe(1003);
    const failures = await inHq<{ reason: string }>(
      sql`select reason from login_logs where account = 'user' and ip = ${ip} and result = 'failure'`,
    );
    expect(failures.map((f) => f.reason)).toEqual(Array(LOCKOUT.sourceThreshold).fill('passkey refused'));
  });

  it('counts as a factor for the policy, the recovery codes and step-up; a second factor more needs a recent proof; administrators remove passkeys too', async () => {
    const acmeToken = await passwordToken('acme', 'Acme@123456');
    expect((await call('PUT', '/api/system/security/mfa-policy', { token: acmeToken, body: { policy: 'admins' } })).status).toBe(200);
    const key = new SoftAuthenticator();
    const added = await addPasskey(acmeToken, key);
    const recovery = added.body.data.recoveryCodes as string[];
    // the policy is met by the passkey: the second step, not the enrolment
    const first = await login('acme', 'Acme@123456');
    expect(first.body.data).toMatchObject({ mfa: 'required', methods: ['webauthn', 'recovery'] });
    // a recovery code signs a passkey-only account in
    const byCode = await call('POST', '/api/system/user/login/mfa', {
      body: { mfaToken: first.body.data.mfaToken, method: 'recovery', code: recovery[0] },
    });
    expect(byCode.status).toBe(200);
    const session = byCode.body.data.token as string;

    // step-up: an old proof asks again before a password change, and before another factor
    ctx.clock.advance(STEP_UP_MS + 1000);
    const change = () =>
      call('PUT', '/api/user/password', { token: session, body: { oldPassword: 'not-it', newPassword: 'Kx9!mountain-ledger' } });
    expect((await change()).body.code).toBe(1022);
    expect((await call('POST', '/api/user/mfa/totp', { token: session })).body.code).toBe(1022);
    expect((await call('POST', '/api/user/mfa/webauthn/register/options', { token: session })).body.code).toBe(1022);
    // a passkey assertion to no step-up challenge, or without its response: refused, naming the field
    const noChallenge = await call('POST', '/api/user/mfa/verify', {
      token: session,
      body: { method: 'webauthn', response: key.get({ challenge: 'eA', rpId: HOST }, ORIGIN, key.credentials[0]) },
    });
    expect(fieldsOf(noChallenge)).toEqual(['response']);
    expect(fieldsOf(await call('POST', '/api/user/mfa/verify', { token: session, body: { method: 'webauthn' } }))).toEqual(['response']);
    expect(fieldsOf(await call('POST', '/api/user/mfa/verify', { token: session, body: { method: 'totp' } }))).toEqual(['code']);
    // a step-up challenge older than five minutes is refused
    const expired = await call('POST', '/api/user/mfa/webauthn/options', { token: session });
    ctx.clock.advance(CHALLENGE_TTL_MS + 1000);
    const late = { method: 'webauthn', response: key.get(expired.body.data, ORIGIN) };
    expect(fieldsOf(await call('POST', '/api/user/mfa/verify', { token: session, body: late }))).toEqual(['response']);
    const options = await call('POST', '/api/user/mfa/webauthn/options', { token: session });
    expect(
      (
        await call('POST', '/api/user/mfa/verify', {
          token: session,
          body: { method: 'webauthn', response: key.get(options.body.data, ORIGIN) },
        })
      ).status,
    ).toBe(200);
    expect(fieldsOf(await change())).toEqual(['oldPassword']);
    // with the proof fresh, an authenticator app joins; its confirmation leaves the codes as they were issued anew
    const begun = await call('POST', '/api/user/mfa/totp', { token: session });
    expect(begun.status).toBe(200);
    const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(begun.body.data.secret) }).generate({
      timestamp: ctx.clock.now().getTime(),
    });
    expect((await call('POST', '/api/user/mfa/totp/confirm', { token: session, body: { code } })).status).toBe(200);
    expect((await login('acme', 'Acme@123456')).body.data.methods).toEqual(['totp', 'webauthn', 'recovery']);

    // a tenant administrator removing another user's factors removes the passkeys with them
    const userToken = await passwordToken('user', 'User@123456');
    expect((await addPasskey(userToken, new SoftAuthenticator())).status).toBe(200);
    const adminToken = await passwordToken('admin', 'Admin@123456');
    const userId = (await call('GET', '/api/system/user/user?accountId=user', { token: adminToken })).body.data.list[0].id as number;
    expect((await call('DELETE', `/api/system/user/mfa/${userId}`, { token: adminToken })).body.data).toEqual({ removed: true });
    expect(
      await ctx.database.query(`select 1 from account_passkeys p join accounts a on a.id = p.account_ref where a.account_id = 'user'`),
    ).toEqual([]);
    expect((await login('user', 'User@123456')).body.data.token).toEqual(expect.any(String));
  });
});
