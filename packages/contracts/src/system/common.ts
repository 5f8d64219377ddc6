import { z } from 'zod';

/** createBy/createTime/updateBy/updateTime as every system entity returns them. */
export const auditFields = {
  createBy: z.string().nullable(),
  createTime: z.string(),
  updateBy: z.string().nullable(),
  updateTime: z.string(),
};

export const phonePattern = /^\+?[0-9][0-9 -]{4,18}[0-9]$/;
/**
 * An address the page loads or links to (an image, an avatar): http(s) with a host, or a path on this site.
 * Never another scheme (`javascript:`, `data:`), and never `//host` or `/\\host`, which browsers read as
 * another site's address. The one building block for every such field.
 */
export const webAddress = (max = 500) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(/^(https?:\/\/[^\s/\\]|\/(?![/\\]))[^\s\\]*$/i, 'link.httpOrPath');
export const optionalText = (max: number) => z.string().trim().max(max).nullish();
export const optionalPhone = () => z.string().trim().max(20).regex(phonePattern, 'invalid phone number').or(z.literal('')).nullish();
export const optionalEmail = () => z.string().trim().max(100).pipe(z.email()).or(z.literal('')).nullish();
export const orderNumSchema = z.number().int().min(0).max(9999);
export const idListSchema = z.array(z.number().int().positive()).max(1000);
/** A code: letters, digits, `_` and `-`, starting with a letter. */
export const codeSchema = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'letters, digits, _ and -, starting with a letter');

// the logs' codes, here and not with the logs' manifests, so that the label registry reads them without the manifests
/** What an operation-log entry says of the operation. */
export const auditResults = ['success', 'failure'] as const;
/** What a login-log entry says happened: every result the server writes. */
export const loginResults = ['success', 'failure', 'locked', 'logout', 'register', 'mfa'] as const;
export type LoginResult = (typeof loginResults)[number];
