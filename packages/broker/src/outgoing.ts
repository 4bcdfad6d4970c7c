import { Agent, fetch as undiciFetch } from "undici";

/**
 * One request of the broker to another host (a remote @context, a context source, a notification
 * endpoint), read by `read`, through a connection pool of its own that is closed once the answer is
 * read or the call failed. On a timeout undici closes the request's socket and then opens another
 * one for the aborted request that nothing uses or closes (nodejs/undici#5845): through the shared
 * pool of fetch, a host that accepts and never answers would keep one socket of ours per call, for
 * minutes.
 */
export async function fetchOnce<T>(
  url: string | URL,
  init: RequestInit,
  read: (response: Response) => Promise<T>,
): Promise<T> {
  const dispatcher = new Agent();
  try {
    const response = await undiciFetch(url, { ...(init as object), dispatcher } as Parameters<
      typeof undiciFetch
    >[1]);
    return await read(response as unknown as Response);
  } finally {
    dispatcher.destroy().catch(() => undefined);
  }
}
