import { useState } from "react";
import { Button, Form, Table } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import { useMutation } from "@tanstack/react-query";
import {
  itemPath,
  recordTitle,
  types,
  woTActionInputProperties,
  woTActions,
  woTProperties,
} from "@orrery/model";
import { call } from "../api.ts";
import { RelationshipSelect } from "../context-data/ValueInput.tsx";
import type { TypeRecord } from "../context-data/entityModel.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { useItem, useList, type Item } from "../resources/queries.ts";

/** What a call answered: the value read, or done. */
type Outcome = { value: unknown } | { done: true };

/** One button that calls a form of the thing description on the chosen entity and shows the answer or the refusal. */
function Call({
  label,
  name,
  disabled,
  run,
}: {
  label: string;
  name: string;
  disabled: boolean;
  run: () => Promise<Outcome>;
}) {
  const { t } = useTranslation();
  const mutation = useMutation({ mutationFn: run });
  const outcome = mutation.data;
  return (
    <>
      <Button
        size="sm"
        variant="outline-primary"
        disabled={disabled || mutation.isPending}
        aria-label={`${label} ${name}`}
        onClick={() => mutation.mutate()}
      >
        {label}
      </Button>
      <output className="ms-2" aria-label={t("wot.try.result", { name })}>
        {mutation.isSuccess && outcome && "value" in outcome && (
          <code className="text-break">{JSON.stringify(outcome.value)}</code>
        )}
        {mutation.isSuccess && outcome && "done" in outcome && t("wot.try.done")}
      </output>
      {/* In a table cell: the sentence, the answer folded, so that the row keeps its height. */}
      <ErrorAlert error={mutation.error} className="mt-2 mb-0 small" folded />
    </>
  );
}

/** The inputs of an action as a consumer gives them: one control per input property, by its type. */
function ActionInputs({
  inputs,
  values,
  onChange,
}: {
  inputs: Item[];
  values: Record<string, unknown>;
  onChange: (values: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation();
  const set = (name: string, value: unknown) => {
    const next = { ...values, [name]: value };
    if (value === undefined) delete next[name];
    onChange(next);
  };
  return (
    <>
      {inputs.map((input) => {
        const name = String(input.name);
        const id = `try-input-${input.id}`;
        const choices = Array.isArray(input.enum) ? (input.enum as unknown[]) : undefined;
        const value = values[name];
        if (input.propertyType === "boolean")
          return (
            <Form.Check
              key={input.id}
              id={id}
              type="checkbox"
              label={name}
              checked={value === true}
              onChange={(e) => set(name, e.target.checked)}
            />
          );
        return (
          <Form.Group key={input.id} controlId={id} className="mb-1">
            <Form.Label className="small mb-0">{name}</Form.Label>
            {choices ? (
              <Form.Select
                size="sm"
                value={value === undefined ? "" : JSON.stringify(value)}
                onChange={(e) => set(name, e.target.value ? JSON.parse(e.target.value) : undefined)}
              >
                <option value="">{t("common.choose")}</option>
                {choices.map((c) => (
                  <option key={JSON.stringify(c)} value={JSON.stringify(c)}>
                    {String(c)}
                  </option>
                ))}
              </Form.Select>
            ) : (
              <Form.Control
                size="sm"
                type={input.propertyType === "number" ? "number" : "text"}
                value={value === undefined ? "" : String(value)}
                onChange={(e) =>
                  set(
                    name,
                    e.target.value === ""
                      ? undefined
                      : input.propertyType === "number"
                        ? Number(e.target.value)
                        : e.target.value,
                  )
                }
              />
            )}
          </Form.Group>
        );
      })}
    </>
  );
}

/**
 * On a thing description's page: its WoT properties and actions tried on an entity of its type, as
 * a consumer of the public TD would (the same API forms, with the console's session): "Read" shows
 * the property's value, "Run" sends the action's inputs; a refusal shows the API's problem.
 */
export function TryThingDescription({ td }: { td: Item }) {
  const { t } = useTranslation();
  const { workspaceId = "" } = useParams();
  const can = useCan();
  const [entityId, setEntityId] = useState("");
  const [inputValues, setInputValues] = useState<Record<string, Record<string, unknown>>>({});
  const type = useItem(types, td.hasType as string | undefined).data?.data as TypeRecord | undefined;
  const mine = (item: Item) => item.hasWoTThingDescription === td.id;
  const byName = (a: Item, b: Item) => String(a.name).localeCompare(String(b.name));
  const properties = (useList(woTProperties).data ?? []).filter(mine).sort(byName);
  const actions = (useList(woTActions).data ?? []).filter(mine).sort(byName);
  const inputs = useList(woTActionInputProperties).data ?? [];
  const valuePath = (p: Item) => `${itemPath(woTProperties, p.id, workspaceId)}/value`;
  const executePath = (a: Item) => `${itemPath(woTActions, a.id, workspaceId)}/execute`;
  const readable = properties.filter((p) => can.can("GET", valuePath(p)));
  const runnable = actions.filter((a) => can.can("POST", executePath(a)));
  if (!readable.length && !runnable.length) return null;
  const query = { entityId };
  return (
    <section className="mt-3" aria-labelledby="try-td">
      <h2 className="h6" id="try-td">
        {t("wot.try.title")}
      </h2>
      <div className="mb-2" style={{ maxWidth: "32rem" }}>
        <Form.Label htmlFor="try-entity">{t("wot.try.entity", { type: type?.name ?? "" })}</Form.Label>
        <RelationshipSelect
          id="try-entity"
          workspaceId={workspaceId}
          targetType={type}
          value={entityId}
          invalid={false}
          onChange={setEntityId}
        />
      </div>
      <Table size="sm" responsive className="mb-0 align-middle">
        <tbody>
          {readable.map((p) => (
            <tr key={p.id}>
              <th scope="row">{recordTitle(woTProperties, p)}</th>
              <td />
              <td>
                <Call
                  label={t("wot.try.read")}
                  name={String(p.name)}
                  disabled={!entityId}
                  run={async () => ({ value: (await call(valuePath(p), { query })).data })}
                />
              </td>
            </tr>
          ))}
          {runnable.map((a) => (
            <tr key={a.id}>
              <th scope="row">{recordTitle(woTActions, a)}</th>
              <td>
                <ActionInputs
                  inputs={inputs.filter((i) => i.hasWoTAction === a.id).sort(byName)}
                  values={inputValues[a.id] ?? {}}
                  onChange={(values) => setInputValues({ ...inputValues, [a.id]: values })}
                />
              </td>
              <td>
                <Call
                  label={t("wot.try.run")}
                  name={String(a.name)}
                  disabled={!entityId}
                  run={async () => {
                    await call(executePath(a), { method: "POST", body: inputValues[a.id] ?? {}, query });
                    return { done: true };
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}
