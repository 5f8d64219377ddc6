import { z } from 'zod';
import { isoDateTime } from './dates';
import { defineResource, textFilter } from './resource';
import { phonePattern } from './system/common';

/**
 * The template forms of spec §2–§5 as real, tenant-scoped data: the step form (a promotion channel
 * record), the group form (video and audio parameters, one set per tenant) and the user's own settings.
 * The web app validates with these same schemas before sending; the server validates again.
 */

/** Words as a reader counts them: each CJK character is one, each run of other non-space characters is one. */
export function countWords(text: string): number {
  const cjk = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0;
  const rest = text
    .replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean).length;
  return cjk + rest;
}

/** Text of at most `max` words (and a character cap so a word count never hides a huge payload). */
const words = (max: number, chars: number) =>
  z
    .string()
    .trim()
    .max(chars)
    .refine((v) => countWords(v) <= max, { message: `words.max${max}` });

export const channelTypes = ['web', 'api'] as const;

export const stepFormInputSchema = z.object({
  // spec §5: up to 20 Chinese characters, letters or digits
  activityName: z
    .string()
    .trim()
    .min(1)
    .max(20)
    .regex(/^[\p{Script=Han}A-Za-z0-9]+$/u, 'chars.nameOnly'),
  channelType: z.enum(channelTypes),
  promotionTime: isoDateTime(),
  // spec §5: must start with http:// or the host (https:// covers a host served over TLS)
  promotionLink: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .regex(/^https?:\/\/[^\s]+$/, 'link.http'),
  advertisingSource: z.string().trim().min(1).max(50),
  advertisingMedia: z.string().trim().min(1).max(50),
  keyword: z.array(z.string().trim().min(1).max(20)).min(1).max(10),
  pushNotify: z.boolean(),
  advertisingContent: words(200, 2000).pipe(z.string().min(1)),
});

export const stepRecordSchema = z.object({
  id: z.number().int(),
  activityName: z.string(),
  channelType: z.enum(channelTypes),
  promotionTime: z.string(),
  promotionLink: z.string(),
  advertisingSource: z.string(),
  advertisingMedia: z.string(),
  keyword: z.array(z.string()),
  pushNotify: z.boolean(),
  advertisingContent: z.string(),
  createBy: z.string().nullable(),
  createTime: z.string(),
});

/** `/api/form/step`: submit (create), the tenant's submissions (list) and one of them (query). */
export const stepResource = defineResource({
  name: 'step',
  domain: 'form',
  item: stepRecordSchema,
  create: stepFormInputSchema,
  filters: z.object({ activityName: textFilter(20), channelType: z.enum(channelTypes).optional() }),
  sortable: ['createTime', 'promotionTime', 'activityName'],
  actions: ['list', 'query', 'create'],
});

export type StepFormInput = z.infer<typeof stepFormInputSchema>;
export type StepRecord = z.infer<typeof stepRecordSchema>;

export const videoModes = ['custom', 'standard'] as const;
export const resolutions = ['720P', '1080P', '2K', '4K'] as const;
export const videoProfiles = ['baseline', 'main', 'high'] as const;
export const audioModes = ['custom', 'standard'] as const;
export const audioProfiles = ['LC', 'HE-AAC', 'HE-AACv2'] as const;

const frameRate = z.number().int().min(1).max(30);
const bitRate = z.number().int().min(150).max(1800);

export const groupFormObjectSchema = z.object({
  videoMode: z.enum(videoModes),
  acquisitionResolution: z.enum(resolutions),
  acquisitionFrameRate: frameRate,
  encodingResolution: z.enum(resolutions),
  minEncodingRate: bitRate,
  maxEncodingRate: bitRate,
  defaultEncodingRate: bitRate,
  encodingFrameRate: frameRate,
  videoProfile: z.enum(videoProfiles),
  audioMode: z.enum(audioModes),
  acquisitionChannels: z.union([z.literal(1), z.literal(2)]),
  // spec §5: bit rates 150 to 1800 (kbps), the audio encoding's among them
  audioEncodingRate: bitRate,
  audioChannels: z.union([z.literal(1), z.literal(2)]),
  audioProfile: z.enum(audioProfiles),
  description: z.string().trim().max(200).default(''),
});

/** Group form (spec §3 fields, §5 ranges: frame rates 1–30, bit rates 150–1800, min ≤ default ≤ max). */
export const groupFormSchema = groupFormObjectSchema.superRefine((v, ctx) => {
  if (v.minEncodingRate > v.maxEncodingRate) ctx.addIssue({ code: 'custom', path: ['minEncodingRate'], message: 'rate.minAboveMax' });
  if (v.defaultEncodingRate < v.minEncodingRate || v.defaultEncodingRate > v.maxEncodingRate)
    ctx.addIssue({ code: 'custom', path: ['defaultEncodingRate'], message: 'rate.defaultOutside' });
});

export type GroupForm = z.infer<typeof groupFormSchema>;

/** What a tenant that never saved the group form reads. */
export const groupFormDefaults: GroupForm = {
  videoMode: 'custom',
  acquisitionResolution: '1080P',
  acquisitionFrameRate: 30,
  encodingResolution: '1080P',
  minEncodingRate: 150,
  maxEncodingRate: 1800,
  defaultEncodingRate: 1000,
  encodingFrameRate: 25,
  videoProfile: 'high',
  audioMode: 'custom',
  acquisitionChannels: 2,
  audioEncodingRate: 192,
  audioChannels: 2,
  audioProfile: 'LC',
  description: '',
};

/** What `GET /api/form/group` answers: the saved parameters (or the defaults) and who saved them when. */
export const groupSettingsSchema = groupFormObjectSchema.extend({ updateBy: z.string().nullable(), updateTime: z.string().nullable() });
export type GroupSettings = z.infer<typeof groupSettingsSchema>;

/** `/api/form/group`: no conventional routes, a read (`form:group:query`) and a save (`form:group:update`). */
export const groupResource = defineResource({
  name: 'group',
  domain: 'form',
  item: groupSettingsSchema,
  create: groupFormObjectSchema,
  filters: z.object({}),
  sortable: ['updateTime'],
  defaultSort: { column: 'updateTime', direction: 'desc' },
  actions: [],
});

/** The user's own basic settings (spec §5: e-mail, nickname, country/region, area required; profile ≤ 200 words; address ≤ 500). */
export const userSettingsInputSchema = z.object({
  email: z.string().trim().min(1).max(100).pipe(z.email()),
  nickname: z.string().trim().min(1).max(30),
  countryRegion: z.string().trim().min(1).max(50),
  area: z.string().trim().min(1).max(100),
  address: z.string().trim().max(500).nullish(),
  profile: words(200, 500).nullish(),
});

export type UserSettingsInput = z.infer<typeof userSettingsInputSchema>;

/** Changing one's own password: the current one proves it is the owner; other sessions end. */
export const changePasswordInputSchema = z.object({
  oldPassword: z.string().min(1).max(128),
  newPassword: z.string().min(1).max(128),
});
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

/**
 * Changing one's own sign-in identifiers (phone, e-mail) from the security settings: the current password
 * proves it is the owner. An empty phone removes it; the e-mail stays required (spec §5).
 */
export const changeContactInputSchema = z.object({
  password: z.string().min(1).max(128),
  phone: z.string().trim().max(20).regex(phonePattern, 'invalid phone number').or(z.literal('')).nullish(),
  email: z.string().trim().min(1).max(100).pipe(z.email()),
});
export type ChangeContactInput = z.infer<typeof changeContactInputSchema>;
