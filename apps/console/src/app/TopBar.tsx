import { useEffect, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { platformKinds } from "@orrery/model";
import { useCan, useConsoleConfig } from "../permissions.ts";
import { kindRoute, routeTo } from "../routes.ts";
import { useSignOut } from "../auth/identityManager.ts";
import { useOpenWorkspaces } from "../workspaces/openWorkspaces.ts";
import { LanguageFlags } from "./Flags.tsx";
import { NavMenu, NavMenuItem } from "./NavMenu.tsx";

/** Administration menu order of the spec, then Orrery's own; data actions have no menu entry. */
const administration = [
  "services",
  "temporal-services",
  "context-brokers",
  "identity-managers",
  "identity-manager-grants",
  "authorization-registries",
  "authorization-registry-grants",
  "vc-verifiers",
  "trusted-issuers-lists",
  "policy-administration-points",
  "credentials-config-services",
  // The machines that call the embedded broker with a key (issue 35): administrators only.
  "broker-clients",
];

export function TopBar() {
  const { t } = useTranslation();
  const can = useCan();
  const settings = useConsoleConfig().data;
  const trustModule = settings?.trustModule ?? true;
  const signOut = useSignOut();
  const openWorkspaces = useOpenWorkspaces();
  // On a phone the menu folds away once a page is chosen, instead of pushing that page down.
  const [expanded, setExpanded] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setExpanded(false), [pathname]);
  const adminKinds = administration
    .map((name) => platformKinds.find((k) => k.kind === name)!)
    .filter((k) => (trustModule || !k.trustModule) && can.index(k));

  return (
    <header>
      {/*
        Bootstrap's navbar markup, as react-bootstrap's Navbar writes it, without its weight (its
        collapse transition, offcanvas and modal manager) on every screen's first load (bench/console).
      */}
      <nav
        className="navbar navbar-expand-lg bg-dark"
        data-bs-theme="dark"
        aria-label={t("app.mainNavigation")}
      >
        <div className="container-fluid">
          <Link className="navbar-brand" to={routeTo("workspaces.index")}>
            ◎ {t("app.brand")}
          </Link>
          <button
            type="button"
            className={`navbar-toggler${expanded ? "" : " collapsed"}`}
            aria-controls="main-nav"
            aria-expanded={expanded}
            aria-label={t("app.toggleNavigation")}
            onClick={() => setExpanded(!expanded)}
          >
            <span className="navbar-toggler-icon" />
          </button>
          <div id="main-nav" className={`navbar-collapse collapse${expanded ? " show" : ""}`}>
            <div className="navbar-nav me-auto">
              <NavLink className="nav-link" to={routeTo("workspaces.index")}>
                {t("app.workspaces")}
              </NavLink>
              {trustModule && !can.showroom && can.registryTool && (
                <NavMenu title={t("app.tools")} id="tools-menu">
                  <NavMenuItem to={routeTo("tools.authorizationRegistries.home")}>
                    {t("tools.authorizationRegistries.title")}
                  </NavMenuItem>
                </NavMenu>
              )}
              {!can.showroom && adminKinds.length > 0 && (
                <NavMenu title={t("app.administration")} id="administration-menu">
                  {adminKinds.map((kind) => (
                    <NavMenuItem key={kind.kind} to={kindRoute(kind, "index")}>
                      {t(`kinds.${kind.kind}.many`)}
                    </NavMenuItem>
                  ))}
                  {can.can("GET", "/audit") && (
                    <NavMenuItem to={routeTo("activity")}>{t("audit.title")}</NavMenuItem>
                  )}
                  {can.can("GET", "/data-access") && (
                    <NavMenuItem to={routeTo("dataAccess")}>{t("dataAccess.title")}</NavMenuItem>
                  )}
                  {can.can("GET", "/health/components") && (
                    <NavMenuItem to={routeTo("status")}>{t("health.title")}</NavMenuItem>
                  )}
                </NavMenu>
              )}
            </div>
            <div className="d-flex align-items-center gap-2 py-2 py-lg-0">
              <LanguageFlags />
              <button type="button" className="btn btn-sm btn-outline-light" onClick={signOut}>
                {t("app.signOut")}
              </button>
            </div>
          </div>
        </div>
      </nav>
      {openWorkspaces.length > 0 && (
        <nav
          className="nav nav-pills bg-body-tertiary px-3 py-1 border-bottom overflow-auto flex-nowrap"
          aria-label={t("app.openWorkspaces")}
        >
          {openWorkspaces.map((ws) => (
            <div className="nav-item" key={ws.id}>
              <NavLink
                to={routeTo("workspace", { workspaceId: ws.id })}
                className="nav-link py-1 text-nowrap"
              >
                {ws.name}
              </NavLink>
            </div>
          ))}
        </nav>
      )}
    </header>
  );
}
