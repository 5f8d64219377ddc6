import type { Page } from '@atrium/contracts/envelope';
import type { ResourceAction } from '@atrium/contracts/resource';
import { http } from '../api';

/** The parts of a contract the web side reads (kept structural so pages import only their own contract). */
export type WebResource = {
  name: string;
  domain: string;
  basePath: string;
  i18n: string;
  paths: Record<ResourceAction, string>;
  sortable: readonly string[];
  permission(action: string): string;
  has(action: ResourceAction): boolean;
  create: { safeParse(value: unknown): SafeParse };
  update: { safeParse(value: unknown): SafeParse };
  /** the list's filters, checked by the search form before it asks */
  filters?: { safeParse(value: unknown): SafeParse };
};
type SafeParse = { success: true; data: unknown } | { success: false; error: { issues: ZodIssueLike[] } };
export type ZodIssueLike = {
  code: string;
  path: PropertyKey[];
  message: string;
  maximum?: unknown;
  minimum?: unknown;
  input?: unknown;
  origin?: string;
  /** what an `invalid_type` issue wanted (`int`, `number`, `string`…) */
  expected?: unknown;
};

export type ListParams = Record<string, string | number | undefined>;
const withId = (path: string, id: number | string) => `/api${path.replace(':id', String(id))}`;

/** The conventional calls of a resource, from its contract's paths. */
export function resourceApi<Item>(resource: WebResource) {
  const p = resource.paths;
  return {
    // the list page shows its own failure in place (no access, or the message with a retry)
    list: (params: ListParams) => http.get<Page<Item>>(`/api${p.list}`, { params, silent: true }),
    get: (id: number | string) => http.get<Item>(withId(p.query, id), { silent: true }),
    create: (body: unknown) => http.post<Item>(`/api${p.create}`, body, { silent: true }),
    update: (id: number, body: unknown) => http.put<Item>(withId(p.update, id), body, { silent: true }),
    setStatus: (id: number, status: '0' | '1') => http.put<Item>(withId(p.status, id), { status }),
    remove: (id: number) => http.delete<null>(withId(p.delete, id)),
  };
}

/** Query keys per resource: everything of a resource invalidates with `all`. */
export const resourceKeys = (resource: Pick<WebResource, 'domain' | 'name'>) => {
  const all = [resource.domain, resource.name] as const;
  return {
    all,
    lists: () => [...all, 'list'] as const,
    list: (params: ListParams) => [...all, 'list', params] as const,
    detail: (id: number | string) => [...all, 'detail', String(id)] as const,
    extra: (what: string) => [...all, what] as const,
  };
};
