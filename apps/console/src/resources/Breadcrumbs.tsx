import { Breadcrumb } from "react-bootstrap";
import { Link } from "react-router";

/** list > item > edit; the last crumb is the current page. */
export function Breadcrumbs({ trail }: { trail: Array<{ label: string; to?: string }> }) {
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
