import { useState, type FormEvent, type ReactNode } from "react";
import { Badge, Button, Col, Form, Row, Spinner, Table } from "react-bootstrap";
import { useTranslation, type TFunction } from "../i18n/index.ts";
import { LogToolbar, useLogExport } from "../app/LogToolbar.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import {
  decisionsCsv,
  fetchAllDecisions,
  useDecisionPage,
  type Decision,
  type DecisionFilters,
} from "./dataAccessApi.ts";
import "texts:data-access";

/** Why, in words (the keys written out, so that the catalogue test sees them used). */
const reasonKeys: Record<string, string> = {
  permit: "dataAccess.reasons.permit",
  admin: "dataAccess.reasons.admin",
  noToken: "dataAccess.reasons.noToken",
  badCredential: "dataAccess.reasons.badCredential",
  unknownToken: "dataAccess.reasons.unknownToken",
  expired: "dataAccess.reasons.expired",
  forbidden: "dataAccess.reasons.forbidden",
  readOnly: "dataAccess.reasons.readOnly",
  noWorkspace: "dataAccess.reasons.noWorkspace",
  clientScope: "dataAccess.reasons.clientScope",
  clientReadOnly: "dataAccess.reasons.clientReadOnly",
  privateEndpoint: "dataAccess.reasons.privateEndpoint",
  noRole: "dataAccess.reasons.noRole",
  registryDeny: "dataAccess.reasons.registryDeny",
  registryUnreachable: "dataAccess.reasons.registryUnreachable",
  policyDeny: "dataAccess.reasons.policyDeny",
  badSignature: "dataAccess.reasons.badSignature",
  untrustedChain: "dataAccess.reasons.untrustedChain",
};
const holderKeys: Record<string, string> = {
  anonymous: "dataAccess.holders.anonymous",
  user: "dataAccess.holders.user",
  client: "dataAccess.holders.client",
  "ishare-user": "dataAccess.holders.ishareUser",
  "ishare-party": "dataAccess.holders.ishareParty",
  fdsc: "dataAccess.holders.fdsc",
};
/** Each filter's label (written out, so that the catalogue test sees them used). */
const filterLabels: Record<keyof DecisionFilters, string> = {
  holder: "dataAccess.holder",
  tenant: "dataAccess.tenant",
  permit: "dataAccess.decision",
  reason: "dataAccess.reason",
  method: "dataAccess.method",
  from: "dataAccess.from",
  to: "dataAccess.to",
};
const label = (t: TFunction, keys: Record<string, string>, value: string) =>
  keys[value] ? t(keys[value]) : value;

const when = (iso: string, language: string) =>
  new Date(iso).toLocaleString(language, { dateStyle: "medium", timeStyle: "medium" });

/** Who asked, as one line: the holder and their kind, the party or client, the roles. */
function Holder({ decision }: { decision: Decision }) {
  const { t } = useTranslation();
  return (
    <>
      {decision.holder ? <strong>{decision.holder}</strong> : null}{" "}
      <span className="text-body-secondary">{label(t, holderKeys, decision.holderKind)}</span>
      {decision.party && <div className="small">{t("dataAccess.party", { party: decision.party })}</div>}
      {decision.roles?.length ? (
        <div className="small">{t("dataAccess.roles", { roles: decision.roles.join(", ") })}</div>
      ) : null}
    </>
  );
}

/**
 * The decisions of the embedded broker's policy enforcement point, newest first, filtered, paged by
 * cursor and exported as CSV or JSON: the platform's whole log (Administration → Data access) or the
 * part of one workspace's tenant (its panel, `workspaceId`).
 */
export function DecisionsLog({ path, tenantFilter }: { path: string; tenantFilter: boolean }) {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<DecisionFilters>({});
  const [filters, setFilters] = useState<DecisionFilters>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const page = useDecisionPage(path, filters, cursors.at(-1));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setCursors([]);
  };
  const set = (key: keyof DecisionFilters) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));
  const {
    exporting,
    error: exportError,
    exportAs,
  } = useLogExport("data-access", () => fetchAllDecisions(path, filters), decisionsCsv);
  const field = (key: keyof DecisionFilters, control: ReactNode, lg = 3) => (
    <Col sm={6} lg={lg}>
      <Form.Group controlId={`${path}-${key}`}>
        <Form.Label>{t(filterLabels[key])}</Form.Label>
        {control}
      </Form.Group>
    </Col>
  );

  return (
    <>
      <Form onSubmit={apply} className="mb-3" aria-label={t("dataAccess.filters")}>
        <Row className="g-2">
          {field("holder", <Form.Control size="sm" value={draft.holder ?? ""} onChange={set("holder")} />)}
          {tenantFilter &&
            field(
              "tenant",
              <Form.Control size="sm" value={draft.tenant ?? ""} onChange={set("tenant")} />,
              2,
            )}
          {field(
            "permit",
            <Form.Select size="sm" value={draft.permit ?? ""} onChange={set("permit")}>
              <option value="">{t("dataAccess.any")}</option>
              <option value="true">{t("dataAccess.permitted")}</option>
              <option value="false">{t("dataAccess.denied")}</option>
            </Form.Select>,
            2,
          )}
          {field(
            "reason",
            <Form.Select size="sm" value={draft.reason ?? ""} onChange={set("reason")}>
              <option value="">{t("dataAccess.any")}</option>
              {Object.keys(reasonKeys).map((r) => (
                <option key={r} value={r}>
                  {label(t, reasonKeys, r)}
                </option>
              ))}
            </Form.Select>,
          )}
          {field(
            "method",
            <Form.Select size="sm" value={draft.method ?? ""} onChange={set("method")}>
              <option value="">{t("dataAccess.any")}</option>
              {["GET", "POST", "PATCH", "PUT", "DELETE"].map((m) => (
                <option key={m}>{m}</option>
              ))}
            </Form.Select>,
            2,
          )}
          {field(
            "from",
            <Form.Control size="sm" type="datetime-local" value={draft.from ?? ""} onChange={set("from")} />,
          )}
          {field(
            "to",
            <Form.Control size="sm" type="datetime-local" value={draft.to ?? ""} onChange={set("to")} />,
          )}
          <Col lg={2} className="d-flex align-items-end">
            <Button type="submit" size="sm" className="w-100">
              {t("dataAccess.apply")}
            </Button>
          </Col>
        </Row>
      </Form>
      <LogToolbar
        texts={{
          export: t("dataAccess.export"),
          exportCsv: t("dataAccess.exportCsv"),
          exportJson: t("dataAccess.exportJson"),
          paging: t("dataAccess.paging"),
          newer: t("dataAccess.newer"),
          older: t("dataAccess.older"),
        }}
        exporting={exporting}
        onExport={exportAs}
        onNewer={cursors.length ? () => setCursors((c) => c.slice(0, -1)) : undefined}
        onOlder={page.data?.next ? () => setCursors((c) => [...c, page.data!.next!]) : undefined}
      />
      <ErrorAlert error={exportError} />
      {page.isPending ? (
        <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
      ) : page.isError ? (
        <ErrorAlert error={page.error} />
      ) : page.data.onEmbeddedBroker === false ? (
        <p className="text-body-secondary">{t("dataAccess.otherBroker")}</p>
      ) : !page.data.items.length ? (
        <p className="text-body-secondary">{t("dataAccess.none")}</p>
      ) : (
        <Table hover size="sm" responsive className="data-access-list">
          <thead>
            <tr>
              <th scope="col">{t("dataAccess.when")}</th>
              <th scope="col">{t("dataAccess.holder")}</th>
              <th scope="col">{t("dataAccess.request")}</th>
              {tenantFilter && <th scope="col">{t("dataAccess.tenant")}</th>}
              <th scope="col">{t("dataAccess.target")}</th>
              <th scope="col">{t("dataAccess.decision")}</th>
            </tr>
          </thead>
          <tbody>
            {page.data.items.map((d) => (
              <tr key={d.id}>
                <td className="text-nowrap">
                  {when(d.lastAt, i18n.language)}
                  {d.count > 1 && (
                    <div className="small text-body-secondary">
                      {t("dataAccess.times", { count: d.count })}
                    </div>
                  )}
                </td>
                <td className="text-break">
                  <Holder decision={d} />
                </td>
                <td className="text-break">
                  <code>
                    {d.method} {d.path}
                  </code>
                </td>
                {tenantFilter && <td>{d.tenant || t("dataAccess.defaultTenant")}</td>}
                <td className="text-break">
                  {d.entityType && <strong>{d.entityType}</strong>} {d.entityId}
                </td>
                <td>
                  <Badge bg={d.permit ? "success" : "danger"}>
                    {d.permit ? t("dataAccess.permit") : t("dataAccess.deny")}
                  </Badge>{" "}
                  {label(t, reasonKeys, d.reason)}
                  {d.detail && <div className="small text-body-secondary text-break">{d.detail}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
