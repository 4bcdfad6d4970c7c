import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api.ts";

/** The one query cache, importable so that a route can start its requests before its page has loaded. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refused or missing record will not appear by retrying.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});
