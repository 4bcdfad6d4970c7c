import { useEffect, useState } from "react";

/**
 * What a create's answer shows once (a broker client's key), handed from the form to the page that
 * opens next. In memory only: never in the history's state, the query cache or the storage, so that
 * once its dialog is closed (or the page reloaded) it is gone.
 */
const waiting = new Map<string, string>();

export function handOver(id: string, secret: string): void {
  waiting.set(id, secret);
}

/** The secret handed over for this record, taken once; `forget` ends its showing. */
export function useHandedOver(id: string): [secret: string | undefined, forget: () => void] {
  const [secret, setSecret] = useState(() => waiting.get(id));
  useEffect(() => {
    waiting.delete(id);
  }, [id]);
  return [secret, () => setSecret(undefined)];
}
