import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ListParams, resourceApi, resourceKeys, type WebResource } from './resource-api';

/** One page of a resource's list; the previous page stays on screen while the next loads. */
export function useResourceList<Item>(resource: WebResource, params: ListParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    enabled: options.enabled ?? true,
    queryKey: resourceKeys(resource).list(params),
    queryFn: () => resourceApi<Item>(resource).list(params),
    placeholderData: keepPreviousData,
  });
}

/** Whether an id from the address bar can name a row at all (`/detail/abc` cannot: nothing is asked). */
export const isRowId = (id: number | string | undefined) =>
  typeof id === 'number' ? Number.isSafeInteger(id) && id > 0 : /^[1-9]\d{0,15}$/.test(id ?? '');

export function useResourceItem<Item>(resource: WebResource, id: number | string | undefined) {
  return useQuery({
    queryKey: resourceKeys(resource).detail(id ?? ''),
    queryFn: () => resourceApi<Item>(resource).get(id as number),
    enabled: isRowId(id),
  });
}

/** Writes; each one refreshes everything cached for the resource. */
export function useResourceMutations<Item>(resource: WebResource) {
  const client = useQueryClient();
  const api = resourceApi<Item>(resource);
  const onSuccess = () => client.invalidateQueries({ queryKey: resourceKeys(resource).all });
  return {
    save: useMutation({
      mutationFn: ({ id, body }: { id?: number; body: unknown }) => (id === undefined ? api.create(body) : api.update(id, body)),
      onSuccess,
    }),
    setStatus: useMutation({ mutationFn: ({ id, status }: { id: number; status: '0' | '1' }) => api.setStatus(id, status), onSuccess }),
    // each row on its own: one that is refused (in use, yourself) does not keep the others; the list is
    // read again whatever happened, and the caller learns which rows went
    remove: useMutation({
      mutationFn: async (ids: number[]) => {
        const results = await Promise.allSettled(ids.map((id) => api.remove(id)));
        return {
          deleted: ids.filter((_, i) => results[i]?.status === 'fulfilled'),
          failed: ids.filter((_, i) => results[i]?.status === 'rejected'),
        };
      },
      onSettled: onSuccess,
    }),
  };
}
