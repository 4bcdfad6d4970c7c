import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { KindDefinition } from "@orrery/model";
import { call, get } from "../api.ts";

export interface Item {
  id: string;
  name: string;
  [field: string]: unknown;
}

export const recordKeys = {
  list: (kind: string) => ["records", kind] as const,
  item: (kind: string, id: string) => ["records", kind, id] as const,
};

export function useList(kind: KindDefinition, enabled = true) {
  return useQuery({
    queryKey: recordKeys.list(kind.kind),
    queryFn: () => get<Item[]>(`/${kind.kind}`),
    enabled,
  });
}

export function useItem(kind: KindDefinition, id: string | undefined, enabled = true) {
  return useQuery({
    queryKey: recordKeys.item(kind.kind, id ?? ""),
    queryFn: () => call<Item>(`/${kind.kind}/${id}`),
    enabled: enabled && !!id,
  });
}

/** Create (no id) or update (with the ETag read, so a concurrent change answers 412 instead of being lost). */
export function useSave(kind: KindDefinition) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, etag, body }: { id?: string; etag?: string | null; body: unknown }) =>
      call<Item>(id ? `/${kind.kind}/${id}` : `/${kind.kind}`, {
        method: id ? "PUT" : "POST",
        body,
        headers: id && etag ? { "if-match": etag } : {},
      }),
    onSuccess: async ({ data }) => {
      client.setQueryData(recordKeys.item(kind.kind, data.id), undefined);
      await client.invalidateQueries({ queryKey: recordKeys.list(kind.kind) });
      await client.invalidateQueries({ queryKey: recordKeys.item(kind.kind, data.id) });
    },
  });
}

export function useDelete(kind: KindDefinition) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call<unknown>(`/${kind.kind}/${id}`, { method: "DELETE" }),
    onSuccess: async (_r, id) => {
      client.removeQueries({ queryKey: recordKeys.item(kind.kind, id) });
      await client.invalidateQueries({ queryKey: recordKeys.list(kind.kind) });
    },
  });
}
