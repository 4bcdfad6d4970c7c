import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router";

/**
 * A menu of the top bar: a button showing its links below it, with Bootstrap's dropdown look. Not
 * react-bootstrap's NavDropdown: a menu in the bar is placed by CSS, and its Popper (which a bar's
 * menu does not use) would weigh on every screen's first load (bench/console). A click elsewhere,
 * Escape or choosing a link closes it.
 */
export function NavMenu({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      root.current?.querySelector("button")?.focus();
    };
    document.addEventListener("click", outside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("click", outside);
      document.removeEventListener("keydown", escape);
    };
  }, [open]);
  return (
    <div className="nav-item dropdown" ref={root}>
      <button
        type="button"
        id={id}
        className="nav-link dropdown-toggle"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {title}
      </button>
      {open && (
        <div className="dropdown-menu show" aria-labelledby={id} onClick={() => setOpen(false)}>
          {children}
        </div>
      )}
    </div>
  );
}

export function NavMenuItem({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link className="dropdown-item" to={to}>
      {children}
    </Link>
  );
}
