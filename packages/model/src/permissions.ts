/**
 * A permission record of the spec: an HTTP method and a resource over `/api/...` paths. As Keyrock's
 * own decision point reads it, the resource is a regular expression matched case-insensitively,
 * unless the permission is `exact` (Keyrock's non-regex permissions): then it is one path, compared
 * as it is written (record ids are case-sensitive). Permissions without `exact` (sessions stored
 * before it existed, config/permissions.yaml) stay regular expressions.
 */
export interface Permission {
  action: string;
  resource: string;
  exact?: boolean;
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

/** The resource matches the path: equal for an exact permission, else its pattern finds the path. */
const covers = (p: Permission, path: string) =>
  p.exact === true ? p.resource === path : pattern(p.resource)?.test(path) === true;

/**
 * The one capability check, used by the API on every request and by the console to hide what the
 * API would refuse: some permission's action (upper-cased) equals the method and its resource
 * covers the path.
 */
export function isAllowed(permissions: readonly Permission[], method: string, path: string): boolean {
  const action = method.toUpperCase();
  return permissions.some((p) => p.action.toUpperCase() === action && covers(p, path));
}

/** A value placed in a generated regular expression, matching only itself. */
export const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Showroom mode: a GET permission on the literal path /showroom. */
export function isShowroom(permissions: readonly Permission[]): boolean {
  return isAllowed(permissions, "GET", "/showroom");
}
