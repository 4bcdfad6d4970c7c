import type { ReactNode } from "react";

/**
 * Bootstrap's alert and spinner as plain markup (its CSS does the rest). The sign-in, the signed-in
 * frame and a list use these instead of react-bootstrap's, so that the first screen loads no
 * react-bootstrap at all (bench/console; issue 38: first screen's JS under 130 kB gzipped). The
 * other screens, which load with their routes, use react-bootstrap.
 */
export function Alert(props: {
  variant: "danger" | "warning" | "info";
  className?: string;
  children: ReactNode;
  "data-testid"?: string;
}) {
  const { variant, className, children, ...rest } = props;
  return (
    <div role="alert" className={`alert alert-${variant}${className ? ` ${className}` : ""}`} {...rest}>
      {children}
    </div>
  );
}

export function Spinner(props: { size?: "sm"; variant?: "light"; role?: "status"; "aria-label"?: string }) {
  const { size, variant, ...rest } = props;
  return (
    <div
      className={`spinner-border${size ? ` spinner-border-${size}` : ""}${variant ? ` text-${variant}` : ""}`}
      {...rest}
    />
  );
}
