import { createHash } from 'node:crypto';
import type { WebauthnResponse } from '@atrium/contracts';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, eq, isNotNull, notExists, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidField } from '../../crud/conflict';
import { accountFactors, accountPasskeys } from '../../db/schema';
import { notFound } from '../../errors';
import type { AuthContext } from '../../plugins/external/access';
import { dropRecoveryCodesWithoutFactor, issueRecoveryCodes, markSecondFactor, WEBAUTHN_KIND } from './mfa.service';

/**
 * Passkeys (WebAuthn) as a second factor (docs/adr/050-passkeys.md), checked by `@simplewebauthn/server`:
 * attestation and assertion, challenge, origin, relying-party id and the authenticator's counter. Every
 * ceremony's challenge lives in the shared store (Redis or `kv_entries`) for at most CHALLENGE_TTL_MS by the
 * app's clock and is taken on use: it answers once, whatever the outcome.
 */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Passkeys one account may keep. */
export const MAX_PASSKEYS = 10;
const RP_NAME = 'Atrium';
/** ES256 and RS256: what authenticators and browsers in use all offer; ES256 first. */
const ALGORITHMS = [-7, -257];

/** The relying party a request's ceremony is for: configured (WEBAUTHN_ORIGIN, WEBAUTHN_RP_ID), else the request's own host. */
export function relyingParty(app: FastifyInstance, request: FastifyRequest): { id: string; origin: string } {
  const origin = app.config.WEBAUTHN_ORIGIN?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
  return { id: app.config.WEBAUTHN_RP_ID ?? new URL(origin).hostname, origin };
}

/** The options handed to the browser as they are (the contract's `webauthnOptionsSchema`). */
type WebauthnOptions = Record<string, unknown>;

type Challenge = { challenge: string; accountRef: number; rpId: string; origin: string; expiresAt: number };

/** Where a ceremony's challenge is kept: the sign-in's (by its mfaToken), a session's passkey being added, a session's step-up. */
export const signInChallengeKey = (mfaToken: string) => `webauthn:sign-in:${createHash('sha256').update(mfaToken).digest('hex')}`;
const registerChallengeKey = (sessionId: number) => `webauthn:register:${sessionId}`;
export const stepUpChallengeKey = (sessionId: number) => `webauthn:step-up:${sessionId}`;

async function keepChallenge(app: FastifyInstance, key: string, value: Omit<Challenge, 'expiresAt'>) {
  const challenge: Challenge = { ...value, expiresAt: app.clock.now().getTime() + CHALLENGE_TTL_MS };
  await app.store.set(key, JSON.stringify(challenge), CHALLENGE_TTL_MS);
}

/** The challenge kept under `key`, taken (single use), if it is this account's and unexpired; else null. */
async function takeChallenge(app: FastifyInstance, key: string, accountRef: number): Promise<Challenge | null> {
  const text = await app.store.take(key);
  const challenge = text ? (JSON.parse(text) as Challenge) : null;
  if (!challenge || challenge.accountRef !== accountRef || challenge.expiresAt <= app.clock.now().getTime()) return null;
  return challenge;
}

async function passkeysOf(app: FastifyInstance, accountRef: number) {
  return app.database.db
    .select({
      id: accountPasskeys.id,
      credentialId: accountPasskeys.credentialId,
      publicKey: accountPasskeys.publicKey,
      signCount: accountPasskeys.signCount,
      transports: accountPasskeys.transports,
    })
    .from(accountPasskeys)
    .where(eq(accountPasskeys.accountRef, accountRef))
    .orderBy(asc(accountPasskeys.id));
}

const transportsOf = (value: string | null) => (value ? value.split(',') : undefined);

/**
 * The user handle an authenticator stores with the account's passkeys: the same for every passkey of the
 * account (an authenticator then keeps one per account), and naming nothing but that.
 */
const userHandle = (accountRef: number) =>
  new Uint8Array(createHash('sha256').update(`atrium-account:${accountRef}`).digest()).slice(0, 16);

/** Options for adding a passkey (navigator.credentials.create), its challenge kept for the session. 400 naming `name` at MAX_PASSKEYS. */
export async function registrationOptions(app: FastifyInstance, request: FastifyRequest, auth: AuthContext) {
  const existing = await passkeysOf(app, auth.accountRef);
  if (existing.length >= MAX_PASSKEYS) throw invalidField('name', 'tooMany', 'mfa.passkeysFull', { max: MAX_PASSKEYS });
  const rp = relyingParty(app, request);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: auth.accountId,
    userID: userHandle(auth.accountRef),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await keepChallenge(app, registerChallengeKey(auth.sessionId), {
    challenge: options.challenge,
    accountRef: auth.accountRef,
    rpId: rp.id,
    origin: rp.origin,
  });
  return options as unknown as WebauthnOptions;
}

/**
 * Adds the passkey the browser made to the session's challenge. The account's `webauthn` factor row is
 * made with the first; the first second factor of the account brings ten recovery codes (answered once).
 * 400 naming `response` for anything the check refuses (wrong or used challenge, origin, relying party,
 * a credential registered already). The session that added it has proved a second factor now.
 */
export async function registerPasskey(
  app: FastifyInstance,
  auth: AuthContext,
  input: { name: string; response: WebauthnResponse },
): Promise<{ id: number; recoveryCodes: string[] | null }> {
  const challenge = await takeChallenge(app, registerChallengeKey(auth.sessionId), auth.accountRef);
  const refused = invalidField('response', 'refused', 'mfa.passkeyRefused');
  if (!challenge) throw refused;
  const verified = await verifyRegistrationResponse({
    response: input.response as unknown as RegistrationResponseJSON,
    expectedChallenge: challenge.challenge,
    expectedOrigin: challenge.origin,
    expectedRPID: challenge.rpId,
    requireUserVerification: false,
    supportedAlgorithmIDs: ALGORITHMS,
  }).catch(() => null);
  if (!verified?.verified) throw refused;
  const { credential } = verified.registrationInfo;
  const now = app.clock.now();
  const accountRef = auth.accountRef;
  const added = await app.database.db.transaction(async (tx) => {
    const [had] = await tx
      .select({ id: accountFactors.id })
      .from(accountFactors)
      .where(and(eq(accountFactors.accountRef, accountRef), isNotNull(accountFactors.confirmedAt)))
      .limit(1);
    // the row the passkeys hang off: no secret of its own (the public keys are no secret)
    const [factor] = await tx
      .insert(accountFactors)
      .values({ accountRef, kind: WEBAUTHN_KIND, secret: '', confirmedAt: now, createTime: now })
      .onConflictDoUpdate({ target: [accountFactors.accountRef, accountFactors.kind], set: { kind: WEBAUTHN_KIND } })
      .returning({ id: accountFactors.id });
    const [passkey] = await tx
      .insert(accountPasskeys)
      .values({
        accountRef,
        factorRef: factor?.id as number,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        signCount: credential.counter,
        transports: credential.transports?.join(',').slice(0, 200) || null,
        name: input.name,
        createTime: now,
      })
      .onConflictDoNothing({ target: accountPasskeys.credentialId })
      .returning({ id: accountPasskeys.id });
    if (!passkey) return null;
    return { id: passkey.id, recoveryCodes: had ? null : await issueRecoveryCodes(tx, accountRef, now) };
  });
  if (!added) throw refused;
  await markSecondFactor(app, auth.sessionId);
  return added;
}

/**
 * Options for proving a passkey of the account (navigator.credentials.get), its challenge kept under
 * `key`; null when the account has no passkey.
 */
export async function assertionOptions(app: FastifyInstance, request: FastifyRequest, accountRef: number, key: string) {
  const passkeys = await passkeysOf(app, accountRef);
  if (passkeys.length === 0) return null;
  const rp = relyingParty(app, request);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
    userVerification: 'preferred',
    timeout: CHALLENGE_TTL_MS,
  });
  await keepChallenge(app, key, { challenge: options.challenge, accountRef, rpId: rp.id, origin: rp.origin });
  return options as unknown as WebauthnOptions;
}

/**
 * Checks an assertion of one of the account's passkeys to the challenge kept under `key` and takes the
 * challenge (used once, whatever the outcome). The authenticator's counter must have grown when it keeps
 * one, and it is kept by a conditional update, so of two assertions with the same counter one passes.
 * False for anything refused: no or another account's challenge, a passkey of another account or removed,
 * a wrong origin, relying party or signature.
 */
export async function usePasskey(app: FastifyInstance, accountRef: number, key: string, response: WebauthnResponse): Promise<boolean> {
  const challenge = await takeChallenge(app, key, accountRef);
  if (!challenge) return false;
  const [passkey] = await app.database.db
    .select({
      id: accountPasskeys.id,
      publicKey: accountPasskeys.publicKey,
      signCount: accountPasskeys.signCount,
      transports: accountPasskeys.transports,
    })
    .from(accountPasskeys)
    .where(and(eq(accountPasskeys.accountRef, accountRef), eq(accountPasskeys.credentialId, response.id)));
  if (!passkey) return false;
  const verified = await verifyAuthenticationResponse({
    response: response as unknown as AuthenticationResponseJSON,
    expectedChallenge: challenge.challenge,
    expectedOrigin: challenge.origin,
    expectedRPID: challenge.rpId,
    credential: {
      id: response.id,
      publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
      counter: passkey.signCount,
      transports: transportsOf(passkey.transports),
    },
    requireUserVerification: false,
  }).catch(() => null);
  if (!verified?.verified) return false;
  const taken = await app.database.db
    .update(accountPasskeys)
    .set({ signCount: verified.authenticationInfo.newCounter, lastUsedAt: app.clock.now() })
    .where(and(eq(accountPasskeys.id, passkey.id), eq(accountPasskeys.signCount, passkey.signCount)))
    .returning({ id: accountPasskeys.id });
  return taken.length > 0;
}

/**
 * Removes one of the caller's passkeys (404 for one that is not theirs); with the last one the `webauthn`
 * factor row goes, and the recovery codes when no other factor is left.
 */
export async function removePasskey(app: FastifyInstance, auth: AuthContext, id: number): Promise<void> {
  await app.database.db.transaction(async (tx) => {
    const removed = await tx
      .delete(accountPasskeys)
      .where(and(eq(accountPasskeys.id, id), eq(accountPasskeys.accountRef, auth.accountRef)))
      .returning({ factorRef: accountPasskeys.factorRef });
    const factorRef = removed[0]?.factorRef;
    if (factorRef === undefined) throw notFound();
    await tx
      .delete(accountFactors)
      .where(
        and(
          eq(accountFactors.id, factorRef),
          notExists(tx.select({ one: sql`1` }).from(accountPasskeys).where(eq(accountPasskeys.factorRef, factorRef))),
        ),
      );
    await dropRecoveryCodesWithoutFactor(tx, auth.accountRef);
  });
}
