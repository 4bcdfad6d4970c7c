import { useEffect } from "react";
import { Link } from "react-router";

/**
 * The browser tab's title (and so the history's): the page, then where it is, then Orrery:
 * "Auditor · Roles · Supermarket · Orrery".
 */
export function usePageTitle(parts: readonly (string | undefined)[], enabled = true) {
  const title = [...parts.filter(Boolean)].reverse().concat("Orrery").join(" · ");
  useEffect(() => {
    if (enabled) document.title = title;
  }, [title, enabled]);
}

/** list > item > edit; the last crumb is the current page. */
export function Breadcrumbs({ trail }: { trail: Array<{ label: string; to?: string }> }) {
  // Deep inside a workspace, the first crumb (Workspaces) says nothing a tab needs.
  usePageTitle(trail.slice(trail.length > 2 ? 1 : 0).map((c) => c.label));
  return (
    // Bootstrap's breadcrumb markup, as react-bootstrap's Breadcrumb writes it (without its weight
    // on the first screen: app/bootstrapMarkup.tsx).
    <nav aria-label="breadcrumb">
      <ol className="breadcrumb">
        {trail.map((crumb, i) =>
          crumb.to && i < trail.length - 1 ? (
            <li key={i} className="breadcrumb-item">
              <Link to={crumb.to}>{crumb.label}</Link>
            </li>
          ) : (
            <li key={i} className="breadcrumb-item active" aria-current="page">
              {crumb.label}
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}
