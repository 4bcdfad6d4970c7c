import { useEffect } from "react";
import { Breadcrumb } from "react-bootstrap";
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
    <Breadcrumb>
      {trail.map((crumb, i) =>
        crumb.to && i < trail.length - 1 ? (
          <Breadcrumb.Item key={i} linkAs={Link} linkProps={{ to: crumb.to }}>
            {crumb.label}
          </Breadcrumb.Item>
        ) : (
          <Breadcrumb.Item key={i} active>
            {crumb.label}
          </Breadcrumb.Item>
        ),
      )}
    </Breadcrumb>
  );
}
