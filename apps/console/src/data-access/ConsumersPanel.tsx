import { useState } from "react";
import { Badge, Button, Card, Spinner, Table } from "react-bootstrap";
import { useTranslation, type TFunction } from "../i18n/index.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import type { Item } from "../resources/queries.ts";
import {
  consumersPath,
  readCommand,
  tokenCommand,
  useConsumerGuide,
  type ConsumerGuide,
  type DryRunRow,
} from "./consumersApi.ts";
import "texts:data-access";

/** Why a method is refused, in words (the keys written out, so that the catalogue test sees them used). */
const whyKeys: Record<string, string> = {
  registryDeny: "dataAccess.consumers.why.registryDeny",
  registryUnreachable: "dataAccess.consumers.why.registryUnreachable",
  policyDeny: "dataAccess.consumers.why.policyDeny",
  noRole: "dataAccess.consumers.why.noRole",
  unknownToken: "dataAccess.consumers.why.unknownToken",
};

const modeKeys: Record<ConsumerGuide["mode"], string> = {
  none: "dataAccess.consumers.modes.none",
  ishare: "dataAccess.consumers.modes.ishare",
  fdsc: "dataAccess.consumers.modes.fdsc",
};

/** "Shelf: GET permitted; POST, PATCH, DELETE denied (the registry denies it)", in the console's language. */
export function rowSentence(t: TFunction, row: DryRunRow): string {
  const parts: string[] = [];
  const permitted = row.decisions.filter((d) => d.permit).map((d) => d.method);
  if (permitted.length) parts.push(t("dataAccess.consumers.permitted", { methods: permitted.join(", ") }));
  for (const reason of [...new Set(row.decisions.filter((d) => !d.permit).map((d) => d.reason))]) {
    const methods = row.decisions.filter((d) => !d.permit && d.reason === reason).map((d) => d.method);
    parts.push(
      t("dataAccess.consumers.denied", {
        methods: methods.join(", "),
        why: whyKeys[reason] ? t(whyKeys[reason]) : reason,
      }),
    );
  }
  return t("dataAccess.consumers.row", {
    type: row.entityType,
    decisions: parts.join(t("dataAccess.consumers.separator")),
  });
}

const Command = ({ text, label }: { text: string; label: string }) => (
  <pre className="bg-body-tertiary p-2 small" aria-label={label}>
    <code>{text}</code>
  </pre>
);

/** How a consumer gets a token in the workspace's trust mode, and how it then reads a type. */
function HowTo({ guide }: { guide: ConsumerGuide }) {
  const { t } = useTranslation();
  const token = tokenCommand(guide);
  const example =
    guide.roles.flatMap((r) =>
      r.rows.filter((row) => row.decisions.some((d) => d.permit && d.method === "GET")),
    )[0]?.entityType ??
    guide.roles[0]?.rows[0]?.entityType ??
    "TYPE";
  return (
    <section aria-label={t("dataAccess.consumers.howTo")}>
      <h3 className="h6">{t("dataAccess.consumers.howTo")}</h3>
      {guide.mode === "none" && <p>{t("dataAccess.consumers.none")}</p>}
      {guide.ishareUser && (
        <p>
          {t("dataAccess.consumers.ishareUser", {
            identityManager: guide.ishareUser.identityManager,
            tokenUrl: guide.ishareUser.tokenUrl,
            clientId: guide.ishareUser.clientId,
          })}
        </p>
      )}
      {guide.mode === "ishare" && !guide.ishareUser && <p>{t("dataAccess.consumers.noIdentityManager")}</p>}
      {token && <Command text={token} label={t("dataAccess.consumers.tokenCommand")} />}
      {guide.ishareParty && (
        <p>
          {t("dataAccess.consumers.ishareParty", {
            registry: guide.ishareParty.registry,
            audience: guide.ishareParty.audience.join(", "),
          })}
        </p>
      )}
      {guide.fdsc && (
        <p>
          {guide.fdsc.verifiers.length
            ? t("dataAccess.consumers.fdsc", {
                organizationDid: guide.fdsc.organizationDid,
                verifiers: guide.fdsc.verifiers.map((v) => `${v.name} (${v.tokenUrl})`).join(", "),
                clientId: guide.fdsc.clientId,
              })
            : t("dataAccess.consumers.noVerifier")}
        </p>
      )}
      <p>{t("dataAccess.consumers.call")}</p>
      {!guide.broker.context && <p className="text-body-secondary">{t("dataAccess.consumers.noContext")}</p>}
      <Command text={readCommand(guide, example)} label={t("dataAccess.consumers.readCommand")} />
    </section>
  );
}

/** What each role may do on each entity type now, as the PEP would decide. */
function DryRun({ guide }: { guide: ConsumerGuide }) {
  const { t } = useTranslation();
  if (!guide.roles.length) return <p className="text-body-secondary">{t("dataAccess.consumers.noRoles")}</p>;
  return (
    <section aria-label={t("dataAccess.consumers.dryRun")}>
      <h3 className="h6">{t("dataAccess.consumers.dryRun")}</h3>
      {guide.roles.map((role) => (
        <Table size="sm" key={role.id} aria-label={t("dataAccess.consumers.role", { name: role.name })}>
          <caption className="caption-top">
            {t("dataAccess.consumers.role", { name: role.name })}{" "}
            {role.roleName && <code className="small">{role.roleName}</code>}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t("dataAccess.consumers.entityType")}</th>
              <th scope="col">{t("dataAccess.consumers.decisions")}</th>
            </tr>
          </thead>
          <tbody>
            {role.rows.map((row) => (
              <tr key={row.entityType}>
                <th scope="row">
                  {row.entityType}{" "}
                  {row.granted && (
                    <Badge bg="secondary" className="fw-normal">
                      {t("dataAccess.consumers.granted")}
                    </Badge>
                  )}
                </th>
                <td title={row.decisions.map((d) => `${d.method}: ${d.detail}`).join("\n")}>
                  {rowSentence(t, row)}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ))}
    </section>
  );
}

/**
 * A workspace's consumers card, beside its data access panel: how a consumer of the data space gets
 * a token, and a dry run of what each role may do now ("Shelf: GET permitted, PATCH denied").
 * Opened on demand: it asks the authorization registry or the policy administration point.
 */
export function ConsumersPanel({ workspace }: { workspace: Item }) {
  const { t } = useTranslation();
  const can = useCan();
  const [open, setOpen] = useState(false);
  const allowed = can.can("GET", consumersPath(workspace.id));
  const guide = useConsumerGuide(workspace.id, open && allowed);
  if (!allowed) return null;
  return (
    <Card className="mt-3" aria-label={t("dataAccess.consumers.title")}>
      <Card.Header className="d-flex justify-content-between align-items-center gap-2">
        <span>{t("dataAccess.consumers.title")}</span>
        <Button size="sm" variant="outline-secondary" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? t("dataAccess.consumers.hide") : t("dataAccess.consumers.show")}
        </Button>
      </Card.Header>
      {open && (
        <Card.Body>
          <p className="text-body-secondary small">{t("dataAccess.consumers.intro")}</p>
          {guide.isPending ? (
            <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
          ) : guide.isError ? (
            <ErrorAlert error={guide.error} />
          ) : (
            <>
              <p>
                <strong>{t(modeKeys[guide.data.mode])}</strong>
              </p>
              {guide.data.onEmbeddedBroker && !guide.data.enforced && (
                <p className="text-warning-emphasis">{t("dataAccess.consumers.open")}</p>
              )}
              {!guide.data.onEmbeddedBroker && (
                <p className="text-body-secondary">{t("dataAccess.consumers.otherBroker")}</p>
              )}
              <HowTo guide={guide.data} />
              <DryRun guide={guide.data} />
            </>
          )}
        </Card.Body>
      )}
    </Card>
  );
}
