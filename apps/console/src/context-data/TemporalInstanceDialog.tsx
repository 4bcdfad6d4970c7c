import { useState } from "react";
import { Button, Form, Modal } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { useMutation } from "@tanstack/react-query";
import { ApiError } from "../api.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import type { Instance } from "./entityModel.ts";
import { timeOf } from "./temporal.ts";
import { historyWrites, utcSecondsInput, valueText, type HistoryRow } from "./temporalWrites.ts";

/** The API's message for one field of a refused value (time, value or unit), if it named it. */
function fieldMessage(error: unknown, field: keyof HistoryRow): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const errors = (error.body as { errors?: Array<{ path?: string; message?: string }> }).errors ?? [];
  return errors.find((e) => e.path === field)?.message;
}

/**
 * Adds a value to an attribute's history, or corrects one (its value, time or unit; the broker
 * keeps its instanceId). Times are UTC, to the second, as the view shows them. A correction sends
 * only what changed.
 */
export function TemporalInstanceDialog(props: {
  base: string;
  propertyName: string;
  /** The instance to correct; none adds a value. */
  instance?: Instance & { instanceId?: string };
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const editing = props.instance;
  const initial = {
    time: utcSecondsInput((editing && timeOf(editing)?.at) ?? new Date().toISOString()),
    value: valueText(editing?.value ?? editing?.object),
    unit: typeof editing?.unitCode === "string" ? editing.unitCode : "",
  };
  const [row, setRow] = useState(initial);
  const save = useMutation({
    mutationFn: () => {
      const asUtc = row.time ? `${row.time}Z` : "";
      if (!editing?.instanceId)
        return historyWrites.add(props.base, { time: asUtc, value: row.value, unit: row.unit });
      const changed: HistoryRow = {};
      if (row.time !== initial.time) changed.time = asUtc;
      if (row.value !== initial.value) changed.value = row.value;
      if (row.unit !== initial.unit) changed.unit = row.unit;
      return historyWrites.correct(props.base, editing.instanceId, changed);
    },
    onSuccess: props.onSaved,
    meta: { background: true },
  });
  const unchanged =
    !!editing && row.time === initial.time && row.value === initial.value && row.unit === initial.unit;
  const title = editing
    ? t("temporal.correctTitle", { name: props.propertyName })
    : t("temporal.addTitle", { name: props.propertyName });
  const field = (name: keyof typeof row, label: string, extra: Record<string, unknown> = {}) => {
    const message = fieldMessage(save.error, name);
    return (
      <Form.Group className="mb-3" controlId={`temporal-instance-${name}`}>
        <Form.Label>{label}</Form.Label>
        <Form.Control
          value={row[name]}
          isInvalid={!!message}
          onChange={(e) => setRow({ ...row, [name]: e.target.value })}
          {...extra}
        />
        {message && <Form.Control.Feedback type="invalid">{message}</Form.Control.Feedback>}
      </Form.Group>
    );
  };
  return (
    <Modal show onHide={props.onClose} aria-labelledby="temporal-instance-title">
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          if (!unchanged) save.mutate();
        }}
      >
        <Modal.Header closeButton closeLabel={t("common.close")}>
          <Modal.Title id="temporal-instance-title" className="h5 text-break">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {field("time", t("temporal.timeUtc"), { type: "datetime-local", step: 1, required: true })}
          {field("value", t("entities.value"), { required: !editing })}
          {field("unit", t("temporal.unit"))}
          <Form.Text className="d-block">{t("temporal.unitHint")}</Form.Text>
          {save.isError && !fieldMessage(save.error, "time") && !fieldMessage(save.error, "value") && (
            <ErrorAlert error={save.error} className="mt-3 mb-0" />
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={props.onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" disabled={save.isPending || unchanged}>
            {t("common.save")}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

export default TemporalInstanceDialog;
