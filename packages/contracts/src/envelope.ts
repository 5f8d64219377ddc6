import { z } from 'zod';

/** Every API response body: `{ code, message, data }`; `code` 200 is success. */
export type Envelope<T> = { code: number; message: string; data: T };

/** `message` is a key of the message catalogues (with `params` for its placeholders) until the server answers in the caller's language. */
export type FieldError = { field: string; rule: string; message: string; params?: Record<string, string | number> };

export const fieldErrorSchema = z.object({
  field: z.string(),
  rule: z.string(),
  message: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/** The envelope schema for a given `data` schema, for OpenAPI and response validation. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), data });
}

export const errorEnvelopeSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.union([z.null(), z.object({ fields: z.array(fieldErrorSchema) }).passthrough(), z.record(z.string(), z.unknown())]),
});

/** Paged list shape shared by every resource list. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int(),
    pageNum: z.number().int(),
    pageSize: z.number().int(),
  });
}

export type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number };

export const pageQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
