import { createServer } from "node:net";

/**
 * The user's browser, reduced to what a login needs: it follows redirects by hand (so every hop is
 * visible and the console's routes, which the API does not serve, can end the walk) and submits
 * HTML forms with their hidden fields.
 */

export interface Landing {
  /** Where the browser is now: the last page fetched, or the URL it stopped at. */
  url: URL;
  /** Status of the last response fetched (the redirect's own status when it stopped at a URL). */
  status: number;
  body: string;
  /** Every URL visited or stopped at, in order. */
  hops: URL[];
}

/** The console's routes, which end a login: /callbacks/authentication and /authentication. */
export const atConsole = (url: URL) =>
  url.pathname === "/callbacks/authentication" || url.pathname === "/authentication";

const redirects = new Set([301, 302, 303, 307, 308]);

/** The cookies a browser keeps, by origin (enough for a session cookie). */
export type CookieJar = Map<string, Map<string, string>>;

function sendCookies(jar: CookieJar | undefined, url: URL): Record<string, string> {
  const cookies = jar?.get(url.origin);
  return cookies?.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") } : {};
}

function keepCookies(jar: CookieJar | undefined, url: URL, response: Response): void {
  if (!jar) return;
  for (const line of response.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const [name = "", value = ""] = pair.split("=");
    const cookies = jar.get(url.origin) ?? new Map<string, string>();
    if (value && !/max-age=0/i.test(line)) cookies.set(name.trim(), value.trim());
    else cookies.delete(name.trim());
    jar.set(url.origin, cookies);
  }
}

export async function navigate(
  start: string | URL,
  options: { stopAt?: (url: URL) => boolean; form?: Record<string, string>; jar?: CookieJar } = {},
): Promise<Landing> {
  const stopAt = options.stopAt ?? atConsole;
  let url = new URL(start);
  let init: RequestInit = options.form
    ? {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(options.form).toString(),
      }
    : { method: "GET" };
  const hops: URL[] = [url];
  for (let i = 0; i < 20; i++) {
    const response = await fetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...sendCookies(options.jar, url) },
      redirect: "manual",
    });
    keepCookies(options.jar, url, response);
    const body = await response.text();
    const location = response.headers.get("location");
    if (!redirects.has(response.status) || !location) return { url, status: response.status, body, hops };
    url = new URL(location, url);
    hops.push(url);
    if (stopAt(url)) return { url, status: response.status, body, hops };
    init = { method: "GET" }; // 302 and 303 after a POST become a GET, as in browsers
  }
  throw new Error(`too many redirects: ${hops.map(String).join(" -> ")}`);
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, name: string) =>
    name[0] === "#"
      ? String.fromCodePoint(Number(name[1] === "x" ? `0${name.slice(1)}` : name.slice(1)))
      : (entities[name] ?? all),
  );
const attribute = (tag: string, name: string) => {
  const value = tag.match(new RegExp(`\\s${name}="([^"]*)"`, "i"))?.[1];
  return value === undefined ? undefined : decode(value);
};

/** The first form of a page: its absolute action and the values of its hidden inputs. */
export function readForm(page: Landing): { action: URL; method: string; hidden: Record<string, string> } {
  const form = page.body.match(/<form\b[^>]*>/i)?.[0];
  if (!form) throw new Error(`no form on ${page.url}: ${page.body.slice(0, 200)}`);
  const hidden: Record<string, string> = {};
  for (const input of page.body.match(/<input\b[^>]*>/gi) ?? []) {
    const name = attribute(input, "name");
    if (attribute(input, "type")?.toLowerCase() === "hidden" && name)
      hidden[name] = attribute(input, "value") ?? "";
  }
  return {
    action: new URL(attribute(form, "action") ?? page.url.toString(), page.url),
    method: (attribute(form, "method") ?? "get").toUpperCase(),
    hidden,
  };
}

/** Fills in the visible fields of the page's form and submits it with the hidden ones. */
export function submit(page: Landing, fields: Record<string, string>, stopAt?: (url: URL) => boolean) {
  const form = readForm(page);
  if (form.method !== "POST") throw new Error(`the form on ${page.url} is not a POST form`);
  return navigate(form.action, { form: { ...form.hidden, ...fields }, stopAt });
}

/** A loopback port free right now, so PUBLIC_URL can be known before the server listens. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
