import { useState } from "react";
import { Button, Form, Modal } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { useMutation } from "@tanstack/react-query";
import { MessageDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { PreviewTable, Rejected } from "./ImportExportDialog.tsx";
import { previewCsv } from "./importExport.ts";
import { historyWrites } from "./temporalWrites.ts";

/**
 * Imports an attribute's history from a CSV file (columns time, value and optionally unit), as
 * the entity import does: the first rows previewed, a dry run of the API saying what would be
 * added and which rows are rejected and why, then the import and its per-row report.
 */
export function TemporalImportDialog(props: {
  base: string;
  propertyName: string;
  onClose: () => void;
  onImported: () => void;
}) {
  const { t } = useTranslation();
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ fields: string[]; rows: Array<Record<string, string>> } | null>(
    null,
  );
  const [dialog, setDialog] = useState<"success" | "failure" | null>(null);
  const dryRun = useMutation({
    mutationFn: (text: string) => historyWrites.import(props.base, text, true),
    meta: { background: true },
  });
  const run = useMutation({
    mutationFn: (text: string) => historyWrites.import(props.base, text, false),
    onSettled: props.onImported,
    meta: { background: true },
  });
  const readFile = async (file: File | undefined) => {
    setCsv(null);
    setPreview(null);
    dryRun.reset();
    run.reset();
    if (!file) return;
    const text = await file.text();
    const parsed = await previewCsv(text);
    setCsv(text);
    setPreview({ fields: parsed.fields, rows: parsed.rows });
    dryRun.mutate(text);
  };
  const plan = dryRun.data;
  const report = run.data;
  return (
    <Modal show onHide={props.onClose} size="lg" aria-labelledby="temporal-import-title">
      <Modal.Header closeButton closeLabel={t("common.close")}>
        <Modal.Title id="temporal-import-title" className="h5 text-break">
          {t("temporal.importTitle", { name: props.propertyName })}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form.Group className="mb-3" controlId="temporal-import-file">
          <Form.Label>{t("importExport.file")}</Form.Label>
          <Form.Control
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void readFile((e.target as HTMLInputElement).files?.[0])}
          />
          <Form.Text>{t("temporal.importHint")}</Form.Text>
        </Form.Group>
        {preview && <PreviewTable preview={preview} />}
        {dryRun.isPending && <p className="small">{t("importExport.checking")}</p>}
        {dryRun.isError && <ErrorAlert error={dryRun.error} />}
        {plan && !report && (
          <div className="mb-3" data-testid="import-plan">
            <p className="mb-2">
              {t("temporal.importPlan", { added: plan.created, rejected: plan.rejected.length })}
            </p>
            <Rejected report={plan} withId={false} />
          </div>
        )}
        {run.isError && <ErrorAlert error={run.error} />}
        {report && (
          <div className="mb-3" data-testid="import-report">
            <p className="mb-2">
              {t("temporal.importReport", { added: report.created, rejected: report.rejected.length })}
            </p>
            <Rejected report={report} withId={false} />
          </div>
        )}
        <Button
          onClick={() =>
            csv &&
            run.mutate(csv, {
              onSuccess: (r) => setDialog(r.rejected.length === 0 ? "success" : "failure"),
              onError: () => setDialog("failure"),
            })
          }
          disabled={!csv || !plan || plan.created === 0 || run.isPending || !!report}
        >
          {t("importExport.import")}
        </Button>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={props.onClose}>
          {t("common.close")}
        </Button>
      </Modal.Footer>
      <MessageDialog
        show={dialog !== null}
        title={dialog === "success" ? t("common.successTitle") : t("common.errorTitle")}
        message={dialog === "success" ? t("temporal.importSuccess") : t("temporal.importFailure")}
        onClose={() => setDialog(null)}
      />
    </Modal>
  );
}

export default TemporalImportDialog;
