import type { ImportReport } from "@orrery/model";
import { useState } from "react";
import { Alert, Button, Form, Modal, ProgressBar, Tab, Table, Tabs } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { MessageDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import type { TypeRecord } from "./entityModel.ts";
import { entityKeys, paths, useConsoleSettings } from "./entityQueries.ts";
import { downloadCsv, previewCsv, sendImport, sheetRows, sheets, type ImportSource } from "./importExport.ts";

type Format = "csv" | "google-sheets";

/** CSV or Google Sheets (the latter only when the server has a service account), and the sheet's address. */
function FormatChoice(props: {
  id: string;
  format: Format;
  onFormat: (f: Format) => void;
  sheet: { spreadsheetId: string; sheetName: string };
  onSheet: (s: { spreadsheetId: string; sheetName: string }) => void;
  showErrors: boolean;
}) {
  const { t } = useTranslation();
  const settings = useConsoleSettings();
  const google = settings.data?.googleSheets;
  return (
    <>
      <fieldset className="mb-3">
        <legend className="form-label fs-6 mb-1">{t("importExport.format")}</legend>
        <Form.Check
          inline
          type="radio"
          id={`${props.id}-csv`}
          name={`${props.id}-format`}
          label={t("importExport.csv")}
          checked={props.format === "csv"}
          onChange={() => props.onFormat("csv")}
        />
        {google && (
          <Form.Check
            inline
            type="radio"
            id={`${props.id}-sheets`}
            name={`${props.id}-format`}
            label="Google Sheets" // a product name, the same in every language
            checked={props.format === "google-sheets"}
            onChange={() => props.onFormat("google-sheets")}
          />
        )}
      </fieldset>
      {google && props.format === "google-sheets" && (
        <>
          <Alert variant="info" className="small py-2">
            {t("importExport.shareWith")}{" "}
            <code className="user-select-all">{google.serviceAccountEmail}</code>
          </Alert>
          <Form.Group className="mb-2" controlId={`${props.id}-spreadsheet`}>
            <Form.Label>{t("importExport.spreadsheetId")} *</Form.Label>
            <Form.Control
              value={props.sheet.spreadsheetId}
              isInvalid={props.showErrors && !props.sheet.spreadsheetId.trim()}
              onChange={(e) => props.onSheet({ ...props.sheet, spreadsheetId: e.target.value })}
            />
            <Form.Control.Feedback type="invalid">{t("validation.required")}</Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="mb-3" controlId={`${props.id}-sheet`}>
            <Form.Label>{t("importExport.sheetName")} *</Form.Label>
            <Form.Control
              value={props.sheet.sheetName}
              isInvalid={props.showErrors && !props.sheet.sheetName.trim()}
              onChange={(e) => props.onSheet({ ...props.sheet, sheetName: e.target.value })}
            />
            <Form.Control.Feedback type="invalid">{t("validation.required")}</Form.Control.Feedback>
          </Form.Group>
        </>
      )}
    </>
  );
}

/** The rejected rows of a report: row, id (unless the rows have none, as history rows), reason. */
export function Rejected({ report, withId = true }: { report: ImportReport; withId?: boolean }) {
  const { t } = useTranslation();
  if (report.rejected.length === 0) return null;
  return (
    <div style={{ maxHeight: 240, overflowY: "auto" }}>
      <Table size="sm" className="small mb-0" aria-label={t("importExport.rejectedRows")}>
        <thead>
          <tr>
            <th scope="col">{t("importExport.row")}</th>
            {withId && <th scope="col">{t("entities.id")}</th>}
            <th scope="col">{t("importExport.reason")}</th>
          </tr>
        </thead>
        <tbody>
          {report.rejected.map((r, i) => (
            <tr key={`${r.row}-${i}`}>
              <td>{r.row}</td>
              {withId && <td className="text-break font-monospace">{r.id ?? ""}</td>}
              <td className="text-break">{r.reason}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

/** The first rows of a file, as read, under their headers. */
export function PreviewTable({
  preview,
}: {
  preview: { fields: string[]; rows: Array<Record<string, string>> };
}) {
  const { t } = useTranslation();
  return (
    <>
      <h3 className="h6">{t("importExport.preview", { count: preview.rows.length })}</h3>
      <div className="table-responsive mb-3" style={{ maxHeight: 260 }}>
        <Table
          size="sm"
          bordered
          className="small mb-0 font-monospace"
          aria-label={t("importExport.previewTable")}
        >
          <thead>
            <tr>
              {preview.fields.map((f) => (
                <th scope="col" key={f}>
                  {f}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row, i) => (
              <tr key={i}>
                {preview.fields.map((f) => (
                  <td key={f} className="text-break">
                    {row[f] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </>
  );
}

const emptySheet = { spreadsheetId: "", sheetName: "" };

function ImportTab({ workspaceId, type }: { workspaceId: string; type: TypeRecord }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [format, setFormat] = useState<Format>("csv");
  const [sheet, setSheet] = useState(emptySheet);
  const [showErrors, setShowErrors] = useState(false);
  const [source, setSource] = useState<ImportSource | null>(null);
  const [preview, setPreview] = useState<{ fields: string[]; rows: Array<Record<string, string>> } | null>(
    null,
  );
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [dialog, setDialog] = useState<"success" | "failure" | null>(null);
  // The dry run: what the import would do, before anything is written.
  const dryRun = useMutation({
    mutationFn: (s: ImportSource) => sendImport(workspaceId, type.id, s, { dryRun: true }),
    meta: { background: true },
  });
  const run = useMutation({
    mutationFn: (s: ImportSource) =>
      sendImport(workspaceId, type.id, s, { onProgress: (done, total) => setProgress({ done, total }) }),
    onSettled: () => client.invalidateQueries({ queryKey: entityKeys.all(workspaceId) }),
    // The dialog shows the progress: no full-screen spinner over it.
    meta: { background: true },
  });
  const reset = () => {
    setSource(null);
    setPreview(null);
    dryRun.reset();
    run.reset();
    setProgress(null);
  };
  const loaded = (s: ImportSource, p: { fields: string[]; rows: Array<Record<string, string>> }) => {
    setSource(s);
    setPreview(p);
    dryRun.mutate(s);
  };
  const readFile = async (file: File | undefined) => {
    reset();
    if (!file) return;
    const csv = await file.text();
    const parsed = await previewCsv(csv);
    loaded({ csv }, { fields: parsed.fields, rows: parsed.rows });
  };
  const readSheet = useMutation({
    mutationFn: () => sheets.read(sheet.spreadsheetId.trim(), sheet.sheetName.trim()),
    meta: { background: true },
    onSuccess: (data) => {
      const { fields, rows } = sheetRows(data);
      loaded({ rows }, { fields, rows: rows.slice(0, 10) });
    },
  });
  const start = () => {
    if (!source) return;
    setProgress(null);
    run.mutate(source, {
      onSuccess: (report) => setDialog(report.rejected.length === 0 ? "success" : "failure"),
      onError: () => setDialog("failure"),
    });
  };
  const plan = dryRun.data;
  const report = run.data;
  return (
    <>
      <FormatChoice
        id="import"
        format={format}
        onFormat={(f) => {
          setFormat(f);
          reset();
        }}
        sheet={sheet}
        onSheet={setSheet}
        showErrors={showErrors}
      />
      {format === "csv" ? (
        <Form.Group className="mb-3" controlId="import-file">
          <Form.Label>{t("importExport.file")}</Form.Label>
          <Form.Control
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void readFile((e.target as HTMLInputElement).files?.[0])}
          />
          <Form.Text>{t("importExport.fileHint", { type: type.name })}</Form.Text>
        </Form.Group>
      ) : (
        <Button
          variant="outline-primary"
          className="mb-3"
          onClick={() => {
            setShowErrors(true);
            if (sheet.spreadsheetId.trim() && sheet.sheetName.trim()) {
              reset();
              readSheet.mutate();
            }
          }}
        >
          {t("importExport.readSheet")}
        </Button>
      )}
      {readSheet.isError && <ErrorAlert error={readSheet.error} />}
      {preview && <PreviewTable preview={preview} />}
      {dryRun.isPending && <p className="small">{t("importExport.checking")}</p>}
      {dryRun.isError && <ErrorAlert error={dryRun.error} />}
      {plan && !report && (
        <div className="mb-3" data-testid="import-plan">
          <p className="mb-2">
            {t("importExport.plan", {
              create: plan.created,
              update: plan.updated,
              rejected: plan.rejected.length,
            })}
          </p>
          <Rejected report={plan} />
        </div>
      )}
      {run.isPending && (
        <ProgressBar
          className="mb-3"
          now={progress ? (100 * progress.done) / Math.max(1, progress.total) : 100}
          animated={!progress}
          label={progress ? `${progress.done} / ${progress.total}` : undefined}
          aria-label={t("importExport.progress")}
        />
      )}
      {run.isError && <ErrorAlert error={run.error} />}
      {report && (
        <div className="mb-3" data-testid="import-report">
          <p className="mb-2">
            {t("importExport.report", {
              created: report.created,
              updated: report.updated,
              rejected: report.rejected.length,
            })}
          </p>
          <Rejected report={report} />
        </div>
      )}
      <Button onClick={start} disabled={!source || !plan || run.isPending || !!report}>
        {t("importExport.import")}
      </Button>
      <MessageDialog
        show={dialog !== null}
        title={dialog === "success" ? t("common.successTitle") : t("common.errorTitle")}
        message={dialog === "success" ? t("importExport.importSuccess") : t("importExport.importFailure")}
        onClose={() => setDialog(null)}
      />
    </>
  );
}

function ExportTab({ workspaceId, type }: { workspaceId: string; type: TypeRecord }) {
  const { t } = useTranslation();
  const [format, setFormat] = useState<Format>("csv");
  const [sheet, setSheet] = useState(emptySheet);
  const [showErrors, setShowErrors] = useState(false);
  const [bom, setBom] = useState(false);
  const [dialog, setDialog] = useState<"success" | "failure" | null>(null);
  const run = useMutation({
    mutationFn: async () => {
      if (format === "csv") await downloadCsv(workspaceId, type.id, type.name, bom);
      else await sheets.write(workspaceId, type.id, sheet.spreadsheetId.trim(), sheet.sheetName.trim());
    },
    onSuccess: () => setDialog("success"),
    onError: () => setDialog("failure"),
  });
  return (
    <>
      <FormatChoice
        id="export"
        format={format}
        onFormat={setFormat}
        sheet={sheet}
        onSheet={setSheet}
        showErrors={showErrors}
      />
      {format === "csv" && (
        <Form.Check
          className="mb-3"
          id="export-bom"
          label={t("importExport.bom")}
          checked={bom}
          onChange={(e) => setBom(e.target.checked)}
        />
      )}
      {run.isError && <ErrorAlert error={run.error} />}
      <Button
        disabled={run.isPending}
        onClick={() => {
          setShowErrors(true);
          if (format === "google-sheets" && (!sheet.spreadsheetId.trim() || !sheet.sheetName.trim())) return;
          run.mutate();
        }}
      >
        {format === "csv"
          ? t("importExport.download", { file: `${type.name}.csv` })
          : t("importExport.writeSheet")}
      </Button>
      <MessageDialog
        show={dialog !== null}
        title={dialog === "success" ? t("common.successTitle") : t("common.errorTitle")}
        message={dialog === "success" ? t("importExport.exportSuccess") : t("importExport.exportFailure")}
        onClose={() => setDialog(null)}
      />
    </>
  );
}

/**
 * The import/export dialog of a type's entities: Import (only with permission to store entities)
 * and Export tabs, CSV or Google Sheets. The import previews the first rows, shows what a dry run
 * of the API would do, then imports with progress and a report per row.
 */
export default function ImportExportDialog(props: {
  workspaceId: string;
  type: TypeRecord;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const canImport = can.can("POST", paths.entities(props.workspaceId));
  // Import first when allowed (the permissions may still be loading when the dialog opens).
  const [chosen, setTab] = useState<string | null>(null);
  const tab = chosen ?? (canImport ? "import" : "export");
  return (
    <Modal show onHide={props.onClose} size="lg" aria-labelledby="import-export-title">
      <Modal.Header closeButton closeLabel={t("common.close")}>
        <Modal.Title id="import-export-title" className="h5">
          {t("importExport.title", { type: props.type.name })}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Tabs
          activeKey={tab}
          onSelect={(k) => setTab(k ?? "export")}
          className="mb-3"
          id="import-export-tabs"
          mountOnEnter
        >
          <Tab eventKey="import" title={t("importExport.importTab")} disabled={!canImport}>
            <ImportTab workspaceId={props.workspaceId} type={props.type} />
          </Tab>
          <Tab eventKey="export" title={t("importExport.exportTab")}>
            <ExportTab workspaceId={props.workspaceId} type={props.type} />
          </Tab>
        </Tabs>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={props.onClose}>
          {t("common.close")}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
