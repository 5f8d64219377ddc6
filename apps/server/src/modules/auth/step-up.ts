import type { MfaVerifyInput } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { invalidField } from '../../crud/conflict';
import type { AuthContext } from '../../plugins/external/access';
import { markSecondFactor, useSecondFactor } from './mfa.service';
import { stepUpChallengeKey, usePasskey } from './passkey.service';

/**
 * A step-up check (POST /api/user/mfa/verify): a code, or a passkey's assertion to the session's step-up
 * challenge, proves the second factor again, and the session remembers when. 400 naming `code` or `response`.
 */
export async function verifyStepUp(app: FastifyInstance, auth: AuthContext, input: MfaVerifyInput): Promise<void> {
  if (input.method === 'webauthn') {
    const passed = input.response && (await usePasskey(app, auth.accountRef, stepUpChallengeKey(auth.sessionId), input.response));
    if (!passed) throw invalidField('response', 'refused', 'mfa.passkeyRefused');
  } else if (!(await useSecondFactor(app, auth.accountRef, input.method, input.code ?? ''))) {
    throw invalidField('code', 'wrong', 'mfa.codeWrong');
  }
  await markSecondFactor(app, auth.sessionId);
}
