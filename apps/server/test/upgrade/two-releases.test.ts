import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPostgresDatabase, postgresAdminUrl, postgresDatabaseUrl } from '../postgres-admin';
import { type Data, postgresReachable, ServerProcess as Release, repository } from './server-process';

// A rolling upgrade, rehearsed (docs/operations.md, "Upgrading"; ADR 031): the previous release runs on
// PostgreSQL with data made through its own API, this release starts beside it and migrates the shared
// database, and then both serve at once — the previous release's sign-in, sessions, user info and writes
// answer as before, and this release reads what the previous one wrote and the other way round.
//
// `npm test -- upgrade` checks out the previous release (package.json `atrium.previousRelease`, built by
// scripts/release-checkout.mjs) and passes its directory in ATRIUM_PREVIOUS_RELEASE_DIR. This release is
// the checkout the test runs from, or ATRIUM_NEXT_RELEASE_DIR (another checked-out release: rehearsing
// any pair, 0.1.0 → 0.2.0 for instance, which this test fails as it should).
const previousDir = process.env.ATRIUM_PREVIOUS_RELEASE_DIR;
const nextDir = process.env.ATRIUM_NEXT_RELEASE_DIR ?? repository;

const reachable = await postgresReachable(postgresAdminUrl);
if (process.env.CI && (!previousDir || !reachable)) {
  throw new Error(
    !previousDir
      ? 'ATRIUM_PREVIOUS_RELEASE_DIR is not set: run this through `npm test -- upgrade`, which checks the previous release out'
      : `PostgreSQL is not reachable at ${postgresAdminUrl}`,
  );
}

const PASSWORD = 'Upgrade#Pass1';
const NEW_PASSWORD = 'Upgrade#Pass2';
const profile = (user: Record<string, unknown>) => ({
  accountId: user.accountId,
  name: user.name,
  nickname: user.nickname,
  email: user.email,
  phone: user.phone,
  status: user.status,
  deptId: user.deptId,
  roleIds: user.roleIds,
  postIds: user.postIds,
});

describe.skipIf(!previousDir || !reachable)('a rolling upgrade: the previous release beside this one on one database', () => {
  const database = `atrium_upgrade_${process.pid}_${Date.now().toString(36)}`;
  let dataDir: string;
  let previous: Release;
  let next: Release;
  // made through the previous release before the upgrade
  const before: { adminToken?: string; userToken?: string; deptId?: number; created?: Data; info?: Data; list?: Data } = {};

  const userByAccount = async (release: Release, token: string, accountId: string) => {
    const list = await release.call('GET', `/system/user/user?pageNum=1&pageSize=10&accountId=${accountId}`, { token });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    return (list.body.data.list as Data[]).find((row) => row.accountId === accountId);
  };

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: postgresAdminUrl });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'atrium-upgrade-'));
    const env = { DATABASE_URL: postgresDatabaseUrl(database), SEED: 'demo', DATA_DIR: dataDir };
    previous = await Release.start('previous release', previousDir as string, { ...env, DATA_DIR: path.join(dataDir, 'previous') });

    // the previous release's own data, made through its API
    const admin0 = await previous.signIn('admin', 'Admin@123456');
    expect(admin0.status, JSON.stringify(admin0.body)).toBe(200);
    before.adminToken = admin0.body.data.token;
    const token = before.adminToken as string;
    const user0 = await previous.signIn('user', 'User@123456');
    expect(user0.status).toBe(200);
    before.userToken = user0.body.data.token;
    const dept = await previous.call('POST', '/system/dept', { token, body: { parentId: null, name: 'Upgrade rehearsal', orderNum: 9 } });
    expect(dept.status, JSON.stringify(dept.body)).toBe(200);
    before.deptId = dept.body.data.id;
    const created = await previous.call('POST', '/system/user/info', {
      token,
      body: { accountId: 'upgrade_one', name: 'Upgrade One', password: PASSWORD, email: 'upgrade.one@example.com', deptId: before.deptId },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    before.created = created.body.data;
    before.info = (await previous.call('GET', '/user/info', { token })).body.data;
    before.list = profile(await userByAccount(previous, token, 'upgrade_one'));

    // the upgrade: this release starts beside it and migrates the database they share
    next = await Release.start('this release', nextDir, { ...env, DATA_DIR: path.join(dataDir, 'next') });
    for (;;) {
      const ready = await next.readyz();
      if (ready.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  afterAll(async () => {
    await previous?.stop();
    await next?.stop();
    await dropPostgresDatabase(database).catch(() => {});
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the previous release signing people in, old sessions and new', async () => {
    const admin = await previous.signIn('admin', 'Admin@123456');
    expect(admin.status, `${JSON.stringify(admin.body)}\n${previous.log()}`).toBe(200);
    const one = await previous.signIn('upgrade_one', PASSWORD);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    // sessions made before the upgrade
    const info = await previous.call('GET', '/user/info', { token: before.adminToken });
    expect(info.status, JSON.stringify(info.body)).toBe(200);
    expect(info.body.data.accountId ?? info.body.data.user?.accountId).toEqual(before.info.accountId ?? before.info.user?.accountId);
    expect((await previous.call('POST', '/system/user/userInfoLogin', { token: before.userToken })).status).toBe(200);
    // a wrong password is still a wrong password, not an error
    const wrong = await previous.signIn('upgrade_one', 'Wrong#Pass9');
    expect(wrong.status).toBeLessThan(500);
    expect(wrong.body.code).not.toBe(0);
  });

  it('shows on the previous release what it wrote before the upgrade, as it was', async () => {
    expect(profile(await userByAccount(previous, before.adminToken as string, 'upgrade_one'))).toEqual(before.list);
  });

  it("keeps the previous release's writes working: create, reset a password, sign out", async () => {
    const token = before.adminToken as string;
    const created = await previous.call('POST', '/system/user/info', {
      token,
      body: { accountId: 'upgrade_two', name: 'Upgrade Two', password: PASSWORD, deptId: before.deptId },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const reset = await previous.call('PUT', `/system/user/resetPwd/${before.created.id}`, { token, body: { password: NEW_PASSWORD } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await previous.signIn('upgrade_one', NEW_PASSWORD)).status).toBe(200);
    expect((await next.signIn('upgrade_one', NEW_PASSWORD)).status).toBe(200);
    expect((await next.signIn('upgrade_one', PASSWORD)).body.code).not.toBe(0);
    // an update of a user's profile on the old release
    const updated = await previous.call('PUT', `/system/user/info/${created.body.data.id}`, {
      token,
      body: { name: 'Upgrade Two', nickname: 'two', deptId: before.deptId },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    // signing out on the old release ends the session on both
    const session = (await previous.signIn('upgrade_two', PASSWORD)).body.data.token;
    expect((await next.call('POST', '/system/user/userInfoLogin', { token: session })).status).toBe(200);
    expect((await previous.call('POST', '/system/user/logout', { token: session })).status).toBe(200);
    expect((await previous.call('POST', '/system/user/userInfoLogin', { token: session })).body.code).toBe(1302);
  });

  it('lets this release read and sign in what the previous one wrote, and the other way round', async () => {
    const token = before.adminToken as string;
    // a session of the previous release is one of this release's
    expect((await next.call('GET', '/user/info', { token })).status).toBe(200);
    expect((await next.signIn('upgrade_two', PASSWORD)).status).toBe(200);
    expect(profile(await userByAccount(next, token, 'upgrade_one'))).toEqual(before.list);
    // found by name, whichever release wrote or renamed them (this release may keep derived columns)
    const byName = await next.call('GET', '/system/user/user?pageNum=1&pageSize=10&name=upgrade', { token });
    expect(byName.status).toBe(200);
    expect((byName.body.data.list as Data[]).map((row) => row.accountId).sort()).toEqual(['upgrade_one', 'upgrade_two']);
    const three = await next.call('POST', '/system/user/info', {
      token,
      body: { accountId: 'upgrade_three', name: 'Upgrade Three', password: PASSWORD, deptId: before.deptId },
    });
    expect(three.status, JSON.stringify(three.body)).toBe(200);
    expect(profile(await userByAccount(previous, token, 'upgrade_three'))).toEqual(profile(three.body.data));
    expect((await previous.signIn('upgrade_three', PASSWORD)).status).toBe(200);
  });

  it('keeps the previous release in rotation: its /readyz still says it can serve', async () => {
    const ready = await previous.readyz();
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
  });

  it('answered nothing with a server error, on either release', () => {
    expect([...previous.failures(), ...next.failures()]).toEqual([]);
  });
});
