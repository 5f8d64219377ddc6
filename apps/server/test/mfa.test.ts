import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/client';
import { LOCKOUT, MFA_TOKEN_TTL_MS } from '../src/modules/auth/login.service';
import { STEP_UP_MS } from '../src/modules/auth/mfa.service';
import { buildTestApp, engines, withoutSecondFactors } from './helper';
import { startMailbox } from './mailbox';
import { type Answer, fromAddress } from './system/api';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;

/** The fields a 400 names. */
const fieldsOf = (answer: Answer) => (answer.body.data?.fields as { field: string }[] | undefined)?.map((f) => f.field);

/** The code an authenticator app shows for `secret` at `at` (the same library the server checks with). */
const codeAt = (secret: string, at: Date) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

const STEP = 30_000;

describe.each(engines)('second factor on %s', (engine) => {
  let ctx: Ctx;
  const call = fromAddress(() => ctx, { ip: '10.9.0.1' });
  const login = (account: string, password: string, ip?: string) =>
    call('POST', '/api/system/user/login', { body: { account, password }, ip });
  const second = (mfaToken: string, method: 'totp' | 'recovery', code: string, ip?: string) =>
    call('POST', '/api/system/user/login/mfa', { body: { mfaToken, method, code }, ip });
  const now = () => ctx.clock.now();
  /** A statement in a tenant (its rows are under row-level security); the rows it answers. */
  const inTenant = async <T>(code: string, text: ReturnType<typeof sql>) => {
    const [tenant] = await ctx.database.query<{ id: number }>(`select id::int from tenants where code = $1`, [code]);
    return withTenant(ctx.database.db, tenant?.id ?? 0, async (tx) => (await tx.execute(text)) as unknown as { rows: T[] }).then(
      (r) => r.rows,
    );
  };
  /** A fresh time step for each code the tests use, so none is refused as used already. */
  const nextStep = () => ctx.clock.advance(3 * STEP);

  /** Enrols an authenticator app for the session's account; its secret and recovery codes. */
  async function enrol(token: string) {
    const begun = await call('POST', '/api/user/mfa/totp', { token });
    expect(begun.status).toBe(200);
    const secret = begun.body.data.secret as string;
    const confirmed = await call('POST', '/api/user/mfa/totp/confirm', { token, body: { code: codeAt(secret, now()) } });
    expect(confirmed.status).toBe(200);
    nextStep();
    return { secret, recoveryCodes: confirmed.body.data.recoveryCodes as string[] };
  }

  async function passwordToken(account: string, password: string) {
    const answer = await login(account, password);
    expect(answer.body.data.token, JSON.stringify(answer.body)).toEqual(expect.any(String));
    return answer.body.data.token as string;
  }

  let mailbox: Awaited<ReturnType<typeof startMailbox>>;

  beforeAll(async () => {
    mailbox = await startMailbox();
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000', SMTP_URL: mailbox.url });
  });
  afterAll(async () => {
    await ctx?.close();
    await mailbox?.close();
  });
  beforeEach(async () => {
    // every test starts without factors, locks or pending sign-ins, every tenant optional, every user enabled
    for (const code of ['hq', 'acme']) await inTenant(code, sql`update tenant_users set status = '0'`);
    await withoutSecondFactors(ctx);
  });

  it('enrols an authenticator app: not active until a right code confirms it; ten recovery codes; the secret sealed at rest and never listed', async () => {
    const token = await passwordToken('user', 'User@123456');
    const begun = await call('POST', '/api/user/mfa/totp', { token });
    expect(begun.body.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Atrium:user\?.*secret=/);
    const secret = begun.body.data.secret as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // begun, not confirmed: the password alone still signs in, and nothing is listed
    expect((await login('user', 'User@123456')).body.data.token).toEqual(expect.any(String));
    expect((await call('GET', '/api/user/mfa', { token })).body.data).toEqual({ factors: [], recoveryCodesLeft: 0, required: false });
    const wrong = await call('POST', '/api/user/mfa/totp/confirm', {
      token,
      body: { code: codeAt(secret, new Date(now().getTime() - 5 * STEP)) },
    });
    expect(wrong.status).toBe(400);
    expect(fieldsOf(wrong)).toEqual(['code']);
    expect((await login('user', 'User@123456')).body.data.token).toEqual(expect.any(String));
    const [stored] = await ctx.database.query<{ secret: string }>(`select secret from account_factors`);
    expect(stored?.secret.startsWith('atrium-secret:v1:')).toBe(true);
    expect(stored?.secret).not.toContain(secret);

    const confirmed = await call('POST', '/api/user/mfa/totp/confirm', { token, body: { code: codeAt(secret, now()) } });
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const hashes = await ctx.database.query<{ code_hash: string }>(`select code_hash from recovery_codes`);
    expect(hashes).toHaveLength(10);
    expect(hashes.map((h) => h.code_hash)).not.toContain(codes[0]);
    const listed = await call('GET', '/api/user/mfa', { token });
    expect(listed.body.data).toMatchObject({ factors: [{ kind: 'totp' }], recoveryCodesLeft: 10, required: false });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    // a second enrolment over an active one is refused, naming totp
    const again = await call('POST', '/api/user/mfa/totp', { token });
    expect(again.status).toBe(400);
    expect(fieldsOf(again)).toEqual(['totp']);
    // from now on the password alone opens nothing: the second step is asked, without a token
    const signIn = await login('user', 'User@123456');
    expect(signIn.status).toBe(200);
    expect(signIn.body.data).toEqual({ mfa: 'required', mfaToken: expect.any(String), methods: ['totp', 'recovery'] });
  });

  it('accepts a code one step either side of the clock and refuses two steps off, and a code used twice', async () => {
    const { secret } = await enrol(await passwordToken('user', 'User@123456'));
    const attempt = async (offsetSteps: number) => {
      const { mfaToken } = (await login('user', 'User@123456')).body.data;
      return { mfaToken, answer: await second(mfaToken, 'totp', codeAt(secret, new Date(now().getTime() + offsetSteps * STEP))) };
    };
    // two steps late or early: refused (the step's own code, not a neighbour of it)
    expect(fieldsOf((await attempt(-2)).answer)).toEqual(['code']);
    expect((await attempt(2)).answer.status).toBe(400);
    // one step late: still inside the window
    const late = await attempt(-1);
    expect(late.answer.status).toBe(200);
    expect(late.answer.body.data.token).toEqual(expect.any(String));
    expect((await call('GET', '/api/user/info', { token: late.answer.body.data.token })).body.data.accountId).toBe('user');
    // the very same code again, inside its window: refused (its step is used)
    const usedCode = codeAt(secret, new Date(now().getTime() - STEP));
    const { mfaToken } = (await login('user', 'User@123456')).body.data;
    expect((await second(mfaToken, 'totp', usedCode)).status).toBe(400);
    // the current step is later than the one used: it passes
    expect((await second(mfaToken, 'totp', codeAt(secret, now()))).status).toBe(200);
    // one step early, after a fresh step: inside
    nextStep();
    expect((await attempt(1)).answer.status).toBe(200);
    // the current step's code is not later than the early step just used: refused
    const { mfaToken: after } = (await login('user', 'User@123456')).body.data;
    expect((await second(after, 'totp', codeAt(secret, now()))).status).toBe(400);
  });

  it('takes each recovery code once, and a recovery code works where the app is lost', async () => {
    const { recoveryCodes } = await enrol(await passwordToken('user', 'User@123456'));
    const code = recoveryCodes[3] as string;
    const first = (await login('user', 'User@123456')).body.data.mfaToken;
    // typed in capitals with spaces: the same code
    const signedIn = await second(first, 'recovery', ` ${code.toUpperCase()} `);
    expect(signedIn.status).toBe(200);
    const again = (await login('user', 'User@123456')).body.data.mfaToken;
    expect((await second(again, 'recovery', code)).status).toBe(400);
    expect((await call('GET', '/api/user/mfa', { token: signedIn.body.data.token })).body.data.recoveryCodesLeft).toBe(9);
    // a six-digit code offered as a recovery code, and a recovery code offered as a TOTP code: wrong
    expect((await second(again, 'totp', recoveryCodes[4] as string)).status).toBe(400);
    expect((await second(again, 'recovery', recoveryCodes[4] as string)).status).toBe(200);
  });

  it('lets an mfaToken sign in once, within five minutes, only for its own account', async () => {
    const user = await enrol(await passwordToken('user', 'User@123456'));
    const acme = await enrol(await passwordToken('acme', 'Acme@123456'));
    // expired by the clock
    const stale = (await login('user', 'User@123456')).body.data.mfaToken;
    ctx.clock.advance(MFA_TOKEN_TTL_MS + 1000);
    expect((await second(stale, 'totp', codeAt(user.secret, now()))).body.code).toBe(1021);
    nextStep();
    // another account's code on this account's token: wrong; the token is no session either
    const mine = (await login('user', 'User@123456')).body.data.mfaToken;
    expect((await second(mine, 'totp', codeAt(acme.secret, now()))).status).toBe(400);
    expect((await second(mine, 'recovery', acme.recoveryCodes[0] as string)).status).toBe(400);
    expect((await call('GET', '/api/user/info', { token: mine })).status).toBe(401);
    // the right code: signed in as the token's account, in its tenant
    const signedIn = await second(mine, 'totp', codeAt(user.secret, now()));
    expect(signedIn.status).toBe(200);
    const info = await call('POST', '/api/system/user/userInfoLogin', { token: signedIn.body.data.token });
    expect(info.body.data).toMatchObject({ accountId: 'user', tenantCode: 'hq' });
    // used: a second use (with a fresh right code) is refused
    nextStep();
    expect((await second(mine, 'totp', codeAt(user.secret, now()))).body.code).toBe(1021);
    expect((await second('not-a-token', 'totp', '123456')).body.code).toBe(1021);
    // the acme recovery codes were not used up by the attempts on the user's token
    const acmeToken = (await login('acme', 'Acme@123456')).body.data.mfaToken;
    expect((await second(acmeToken, 'recovery', acme.recoveryCodes[0] as string)).status).toBe(200);
  });

  it('counts wrong codes on the sign-in locks: the source locks after five, and the password alone is locked too', async () => {
    await enrol(await passwordToken('user', 'User@123456'));
    const ip = '10.9.5.5';
    const { mfaToken } = (await login('user', 'User@123456', ip)).body.data;
    for (let i = 1; i < LOCKOUT.sourceThreshold; i++) expect((await second(mfaToken, 'totp', '000000', ip)).status).toBe(400);
    const locked = await second(mfaToken, 'totp', '000000', ip);
    expect(locked.body.code).toBe(1003);
    // the pending sign-in ended with the lock, and the password from here meets the same lock
    expect((await second(mfaToken, 'totp', '000000', ip)).body.code).toBe(1021);
    expect((await login('user', 'User@123456', ip)).body.code).toBe(1003);
    // elsewhere the owner still gets in
    expect((await login('user', 'User@123456', '10.9.5.6')).body.data.mfa).toBe('required');
    const log = await inTenant<{ result: string; reason: string | null }>(
      'hq',
      sql`select result, reason from login_logs where account = 'user' and ip = ${ip} order by id`,
    );
    // the tenant's rows: the password step and the five wrong codes; the refused password has no tenant
    expect(log.map((l) => l.result)).toEqual(['mfa', 'failure', 'failure', 'failure', 'failure', 'failure']);
    expect(
      await ctx.database.query(`select result from login_logs where account = 'user' and ip = $1 and tenant_ref is null`, [ip]),
    ).toEqual([{ result: 'locked' }]);
    expect(log[1]?.reason).toBe('wrong totp code');
  });

  it('records both steps in the login log, and marks the session as having proved its factor', async () => {
    const { secret } = await enrol(await passwordToken('user', 'User@123456'));
    const ip = '10.9.6.1';
    const { mfaToken } = (await login('user', 'User@123456', ip)).body.data;
    const signedIn = await second(mfaToken, 'totp', codeAt(secret, now()), ip);
    const log = await inTenant<{ result: string; reason: string | null }>(
      'hq',
      sql`select result, reason from login_logs where ip = ${ip} order by id`,
    );
    expect(log).toEqual([
      { result: 'mfa', reason: 'second factor required' },
      { result: 'success', reason: 'second factor: totp' },
    ]);
    const [session] = await ctx.database.query<{ mfa_at: Date | null }>(
      `select s.mfa_at from sessions s where s.ip = $1 and s.ended_at is null`,
      [ip],
    );
    expect(session?.mfa_at).not.toBeNull();
    expect(signedIn.body.data.token).toEqual(expect.any(String));
  });

  it('ends pending sign-ins when the factor is removed or the user disabled', async () => {
    const token = await passwordToken('user', 'User@123456');
    const { secret, recoveryCodes } = await enrol(token);
    const pending = (await login('user', 'User@123456')).body.data.mfaToken;
    // removing needs a right code from the app
    expect((await call('DELETE', '/api/user/mfa/totp', { token, body: { code: '000000' } })).status).toBe(400);
    expect((await call('DELETE', '/api/user/mfa/totp', { token, body: { code: codeAt(secret, now()) } })).status).toBe(200);
    nextStep();
    expect((await second(pending, 'totp', codeAt(secret, now()))).status).toBe(400);
    expect((await second(pending, 'recovery', recoveryCodes[0] as string)).status).toBe(400);
    expect(await ctx.database.query(`select 1 from recovery_codes`)).toEqual([]);
    // without a factor the password signs in as before
    expect((await login('user', 'User@123456')).body.data.token).toEqual(expect.any(String));

    const again = await enrol(await passwordToken('user', 'User@123456'));
    const waiting = (await login('user', 'User@123456')).body.data.mfaToken;
    await inTenant('hq', sql`update tenant_users set status = '1' where account_ref = (select id from accounts where account_id = 'user')`);
    ctx.app.sessions.invalidate();
    expect((await second(waiting, 'totp', codeAt(again.secret, now()))).body.code).toBe(1004);
  });

  it("keeps another user's factors out of reach", async () => {
    await enrol(await passwordToken('acme', 'Acme@123456'));
    const userToken = await passwordToken('user', 'User@123456');
    expect((await call('GET', '/api/user/mfa', { token: userToken })).body.data.factors).toEqual([]);
    const removed = await call('DELETE', '/api/user/mfa/totp', { token: userToken, body: { code: '123456' } });
    expect(removed.status).toBe(400);
    expect(
      await ctx.database.query(`select 1 from account_factors f join accounts a on a.id = f.account_ref where a.account_id = 'acme'`),
    ).toHaveLength(1);
    // the enrolment calls take no account: nothing in the body names another one
    const begun = await call('POST', '/api/user/mfa/totp', { token: userToken, body: { accountRef: 1 } });
    expect(begun.body.data.otpauthUrl).toContain('Atrium:user');
  });

  it('applies the tenant policy: only enrolment opens with the token, then the sign-in goes on', async () => {
    const acmeToken = await passwordToken('acme', 'Acme@123456');
    const userToken = await passwordToken('user', 'User@123456');
    // set by who may grant roles: not the ordinary user
    expect((await call('PUT', '/api/system/security/mfa-policy', { token: userToken, body: { policy: 'everyone' } })).status).toBe(403);
    const bad = await call('PUT', '/api/system/security/mfa-policy', { token: acmeToken, body: { policy: 'sometimes' } });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(['policy']);
    expect((await call('PUT', '/api/system/security/mfa-policy', { token: acmeToken, body: { policy: 'admins' } })).status).toBe(200);
    expect((await call('GET', '/api/system/security/mfa-policy', { token: acmeToken })).body.data).toEqual({ policy: 'admins' });
    // acme's policy is acme's: hq (the user's tenant) is still optional
    expect((await login('user', 'User@123456')).body.data.token).toEqual(expect.any(String));
    expect((await call('GET', '/api/user/mfa', { token: acmeToken })).body.data.required).toBe(true);

    const forced = await login('acme', 'Acme@123456');
    expect(forced.body.data).toEqual({ mfa: 'enrol', mfaToken: expect.any(String), methods: [] });
    const { mfaToken } = forced.body.data;
    // the restricted state opens nothing else: not as a session, not as a second step
    expect((await call('GET', '/api/user/info', { token: mfaToken })).status).toBe(401);
    expect((await call('POST', '/api/user/mfa/totp', { token: mfaToken })).status).toBe(401);
    expect((await call('GET', '/api/system/user/tenant', { token: mfaToken })).status).toBe(401);
    expect((await second(mfaToken, 'totp', '123456')).body.code).toBe(1021);
    // and a token of the second step cannot enrol
    const enrolled = await enrol(await passwordToken('user', 'User@123456'));
    const userPending = (await login('user', 'User@123456')).body.data.mfaToken;
    expect((await call('POST', '/api/system/user/login/mfa/totp', { body: { mfaToken: userPending } })).body.code).toBe(1021);
    expect(enrolled.secret).toBeTruthy();

    const begun = await call('POST', '/api/system/user/login/mfa/totp', { body: { mfaToken } });
    expect(begun.status).toBe(200);
    const wrong = await call('POST', '/api/system/user/login/mfa/totp/confirm', { body: { mfaToken, code: '000000' } });
    expect(fieldsOf(wrong)).toEqual(['code']);
    const done = await call('POST', '/api/system/user/login/mfa/totp/confirm', {
      body: { mfaToken, code: codeAt(begun.body.data.secret, now()) },
    });
    expect(done.status).toBe(200);
    expect(done.body.data.recoveryCodes).toHaveLength(10);
    const info = await call('POST', '/api/system/user/userInfoLogin', { token: done.body.data.token });
    expect(info.body.data).toMatchObject({ accountId: 'acme', tenantCode: 'acme' });
    // used up; and from now on acme signs in with the factor
    expect((await call('POST', '/api/system/user/login/mfa/totp', { body: { mfaToken } })).body.code).toBe(1021);
    expect((await login('acme', 'Acme@123456')).body.data.mfa).toBe('required');
  });

  it('asks an account with a factor for it again before changing its password or contact, once the last check is older than five minutes', async () => {
    const { secret } = await enrol(await passwordToken('user', 'User@123456'));
    const { mfaToken } = (await login('user', 'User@123456')).body.data;
    const token = (await second(mfaToken, 'totp', codeAt(secret, now()))).body.data.token as string;
    const change = () =>
      call('PUT', '/api/user/password', { token, body: { oldPassword: 'not-the-password', newPassword: 'Kx9!mountain-ledger' } });
    // fresh: the change goes through to its own checks (here the wrong current password)
    expect(fieldsOf(await change())).toEqual(['oldPassword']);
    ctx.clock.advance(STEP_UP_MS + 1000);
    expect((await change()).body.code).toBe(1022);
    expect((await call('PUT', '/api/user/contact', { token, body: { password: 'x', phone: '', email: 'u@probe.test' } })).body.code).toBe(
      1022,
    );
    expect((await call('POST', '/api/user/mfa/verify', { token, body: { method: 'totp', code: '000000' } })).status).toBe(400);
    expect((await call('POST', '/api/user/mfa/verify', { token, body: { method: 'totp', code: codeAt(secret, now()) } })).status).toBe(200);
    expect(fieldsOf(await change())).toEqual(['oldPassword']);
    // an account without a factor changes as before, however old its session
    const plain = await passwordToken('acme', 'Acme@123456');
    ctx.clock.advance(STEP_UP_MS + 1000);
    const acmeChange = await call('PUT', '/api/user/password', {
      token: plain,
      body: { oldPassword: 'not-the-password', newPassword: 'Kx9!mountain-ledger' },
    });
    expect(fieldsOf(acmeChange)).toEqual(['oldPassword']);
  });

  it("lets an administrator remove another user's second factor under the holds-at-least rule, audited, and tells the user by mail", async () => {
    const userToken = await passwordToken('user', 'User@123456');
    await enrol(userToken);
    const adminToken = await passwordToken('admin', 'Admin@123456');
    const idOf = async (account: string) =>
      (await call('GET', `/api/system/user/user?accountId=${account}`, { token: adminToken })).body.data.list[0].id as number;
    const userId = await idOf('user');
    const adminId = await idOf('admin');
    // the ordinary user may not (no system:user:resetPwd), another tenant's administrator does not reach hq's user
    expect((await call('DELETE', `/api/system/user/mfa/${adminId}`, { token: userToken })).status).toBe(403);
    const acmeToken = await passwordToken('acme', 'Acme@123456');
    expect((await call('DELETE', `/api/system/user/mfa/${userId}`, { token: acmeToken })).status).toBe(404);
    // one's own goes only with a code from it
    expect((await call('DELETE', `/api/system/user/mfa/${adminId}`, { token: adminToken })).status).toBe(409);
    const pending = (await login('user', 'User@123456')).body.data.mfaToken;
    const mails = mailbox.messages.length;
    const removed = await call('DELETE', `/api/system/user/mfa/${userId}`, { token: adminToken });
    expect(removed.body.data).toEqual({ removed: true });
    expect(await ctx.database.query(`select 1 from account_factors`)).toEqual([]);
    expect(await ctx.database.query(`select 1 from recovery_codes`)).toEqual([]);
    // the pending sign-in has nothing left to match; the password alone signs in now
    expect((await second(pending, 'totp', '123456')).status).toBe(400);
    expect((await login('user', 'User@123456')).body.data.token).toEqual(expect.any(String));
    const mail = await mailbox.next(mails + 1);
    expect(mail).toContain('user@atrium.example');
    expect(mail).toContain('removed the second factors');
    const audit = await inTenant<{ action: string; target_name: string | null }>(
      'hq',
      sql`select action, target_name from oper_logs where url like '/api/system/user/mfa/%' and result = 'success' order by id`,
    );
    expect(audit).toEqual([{ action: 'removeMfa', target_name: 'user User' }]);
    // nothing to remove: answered, no mail
    expect((await call('DELETE', `/api/system/user/mfa/${userId}`, { token: adminToken })).body.data).toEqual({ removed: false });
  });
});
