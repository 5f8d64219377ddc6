import { Modal, Typography } from '@arco-design/web-react';
import i18next from 'i18next';

const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIAL = '!@#$%^&*-_+=?';
const ALL = LOWER + UPPER + DIGITS + SPECIAL;

const pick = (chars: string, random: number) => chars[random % chars.length] as string;

/** 16 random characters with each class present: passes the password policy (letters, digits, specials, ≥ 10). */
export function generatePassword(length = 16): string {
  const random = crypto.getRandomValues(new Uint32Array(length + 4));
  const chars = [LOWER, UPPER, DIGITS, SPECIAL].map((set, i) => pick(set, random[i] as number));
  for (let i = chars.length; i < length; i++) chars.push(pick(ALL, random[i] as number));
  // shuffle so the classes are not always in the first four places
  for (let i = chars.length - 1; i > 0; i--) {
    const j = (random[(i % 4) + length] as number) % (i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}

/** Shown once after the user is created: the administrator copies it and hands it over. */
export function showInitialPassword(account: string, password: string) {
  const t = i18next.t.bind(i18next);
  Modal.info({
    title: t('system.user.password.createdTitle', { account }),
    content: (
      <div data-testid="initial-password">
        <p>{t('system.user.password.createdHint')}</p>
        <Typography.Text copyable code>
          {password}
        </Typography.Text>
      </div>
    ),
    okText: t('system.user.password.done'),
  });
}
