import { Table } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { kindsByName } from "@orrery/model";
import { labelOf } from "../resources/fieldLabel.ts";
import type { AuditEvent } from "./auditApi.ts";

const shown = (value: unknown) =>
  value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);

/**
 * An event's change as a diff: each field with its old value (struck, red) and its new one (green);
 * a secret says only that it changed. Broker writes and the like show their details instead.
 */
export function ChangeDiff({ event }: { event: AuditEvent }) {
  const { t } = useTranslation();
  const kind = kindsByName.get(event.kind);
  const label = (name: string) => {
    const field = kind?.fields.find((f) => f.name === name);
    return field ? labelOf(t, field) : name;
  };
  const changes = event.changes ?? [];
  const detail = Object.entries(event.detail ?? {}).filter(([, v]) => v !== undefined && v !== null);
  if (!changes.length && !detail.length)
    return <p className="small text-body-secondary mb-0">{t("audit.noChanges")}</p>;
  return (
    <>
      {changes.length > 0 && (
        <Table size="sm" className="audit-diff mb-2" aria-label={t("audit.diff")}>
          <thead>
            <tr>
              <th scope="col">{t("audit.field")}</th>
              <th scope="col">{t("audit.before")}</th>
              <th scope="col">{t("audit.after")}</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={c.field}>
                <th scope="row">{label(c.field)}</th>
                {c.secret ? (
                  <td colSpan={2} className="fst-italic">
                    {t("audit.secretChanged")}
                  </td>
                ) : (
                  <>
                    <td className="text-break">
                      {c.before !== undefined && <del className="text-danger">{shown(c.before)}</del>}
                    </td>
                    <td className="text-break">
                      {c.after !== undefined && <ins className="text-success">{shown(c.after)}</ins>}
                    </td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {detail.length > 0 && (
        <dl className="row small mb-0">
          {detail.map(([key, value]) => (
            <div key={key} className="d-contents">
              <dt className="col-4">{key}</dt>
              <dd className="col-8 text-break">{shown(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </>
  );
}
