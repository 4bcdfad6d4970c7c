import { Container, Nav, Navbar } from "react-bootstrap";
import { useEffect, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
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
      <Navbar
        bg="dark"
        data-bs-theme="dark"
        expand="lg"
        aria-label={t("app.mainNavigation")}
        expanded={expanded}
        onToggle={setExpanded}
      >
        <Container fluid>
          <Navbar.Brand as={Link} to={routeTo("workspaces.index")}>
            ◎ {t("app.brand")}
          </Navbar.Brand>
          <Navbar.Toggle aria-controls="main-nav" aria-label={t("app.toggleNavigation")} />
          <Navbar.Collapse id="main-nav">
            <Nav className="me-auto">
              <Nav.Link as={NavLink} to={routeTo("workspaces.index")}>
                {t("app.workspaces")}
              </Nav.Link>
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
            </Nav>
            <div className="d-flex align-items-center gap-2 py-2 py-lg-0">
              <LanguageFlags />
              <button type="button" className="btn btn-sm btn-outline-light" onClick={signOut}>
                {t("app.signOut")}
              </button>
            </div>
          </Navbar.Collapse>
        </Container>
      </Navbar>
      {openWorkspaces.length > 0 && (
        <Nav
          as="nav"
          variant="pills"
          className="bg-body-tertiary px-3 py-1 border-bottom overflow-auto flex-nowrap"
          aria-label={t("app.openWorkspaces")}
        >
          {openWorkspaces.map((ws) => (
            <Nav.Item key={ws.id}>
              <Nav.Link
                as={NavLink}
                to={routeTo("workspace", { workspaceId: ws.id })}
                className="py-1 text-nowrap"
              >
                {ws.name}
              </Nav.Link>
            </Nav.Item>
          ))}
        </Nav>
      )}
    </header>
  );
}
