/** A permission record of the spec: an HTTP method and a regular expression over `/api/...` paths. */
export interface Permission {
  action: string;
  resource: string;
}

const compiled = new Map<string, RegExp | null>();

function pattern(resource: string): RegExp | null {
  let re = compiled.get(resource);
  if (re === undefined) {
    try {
      re = new RegExp(resource, "i");
    } catch {
      re = null; // a broken pattern grants nothing
    }
    compiled.set(resource, re);
  }
  return re;
}

/**
 * The one capability check, used by the API on every request and by the console to hide what the
 * API would refuse: some permission's action (upper-cased) equals the method and its resource
 * pattern matches the path.
 */
export function isAllowed(permissions: readonly Permission[], method: string, path: string): boolean {
  const action = method.toUpperCase();
  return permissions.some(
    (p) => p.action.toUpperCase() === action && pattern(p.resource)?.test(path) === true,
  );
}

/** Showroom mode: a GET permission on the literal path /showroom. */
export function isShowroom(permissions: readonly Permission[]): boolean {
  return isAllowed(permissions, "GET", "/showroom");
}
