import { Form } from "react-bootstrap";
import { Controller, useFormContext } from "react-hook-form";
import { useTranslation } from "../i18n/index.ts";
import { useEffect, useState } from "react";
import { useParams } from "react-router";
import { kindsByName, types, type Field, type Within } from "@orrery/model";
import { RelationshipSelect } from "../context-data/ValueInput.tsx";
import type { TypeRecord } from "../context-data/entityModel.ts";
import { useCan } from "../permissions.ts";
import { fieldErrorText } from "./fieldErrors.ts";
import { labelOf } from "./fieldLabel.ts";
import { HeadersEditor } from "./HeadersEditor.tsx";
import { StringsEditor } from "./StringsEditor.tsx";
import { useItem, useList, type Item } from "./queries.ts";
import { useTitles } from "./titles.ts";

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
/** Choices in the order a reader looks for them, not the order they were saved in. */
const byLabel = (a: { label: string }, b: { label: string }) => collator.compare(a.label, b.label);

/** Which records a reference select offers (all of them unless the form narrows them). */
export type OptionFilter = (item: Item, all: readonly Item[]) => boolean;

/**
 * The options of a select: an enum's values, or the records a reference may name. With `within`,
 * only the records of the form's current choice (the grants of the chosen identity manager), and
 * `dropStale` says when those have loaded, so that a choice outside them can be dropped.
 */
function useSelectOptions(
  field: Field,
  filter?: OptionFilter,
): { options: Array<{ value: string; label: string }>; dropStale: boolean; scope: unknown } {
  const { t } = useTranslation();
  const kind = field.input === "reference" ? kindsByName.get(field.kind) : undefined;
  const within = field.input === "reference" ? field.within : undefined;
  const can = useCan();
  const { watch } = useFormContext();
  const scope: unknown = within ? watch(within.field) : undefined;
  const list = useList(kind ?? ({ kind: "" } as never), !!kind && can.index(kind));
  const all = list.data ?? [];
  const titles = useTitles(kind);
  if (field.input === "enum")
    return {
      options: field.options.map((o) => ({ value: o, label: t(`options.${field.name}.${o}`) })),
      dropStale: false,
      scope,
    };
  const options = all
    .filter((item) => (!within || item[within.via] === scope) && (!filter || filter(item, all)))
    .map((item) => ({ value: item.id, label: titles(item) }))
    .sort(byLabel);
  return { options, dropStale: !!within && list.isSuccess, scope };
}

/**
 * A select of an enum or a reference. A required one with a single option has it chosen (the user
 * sees what is sent), and offers "Choose..." only while nothing is chosen.
 */
function Select(props: {
  options: Array<{ value: string; label: string }>;
  required: boolean;
  value: string | undefined;
  /**
   * Drop a value that is not among the options (a grant of the identity manager chosen before): to
   * null, as undefined would bring an edit form's stored value back.
   */
  dropStale?: boolean;
  onChange: (value: string | undefined | null) => void;
  control: React.ComponentProps<typeof Form.Select>;
}) {
  const { t } = useTranslation();
  const { options, required, value, onChange } = props;
  const only = required && options.length === 1 ? options[0]!.value : undefined;
  const outside = props.dropStale && value != null && !options.some((o) => o.value === value);
  useEffect(() => {
    if (outside) onChange(null);
    else if (only !== undefined && !value) onChange(only);
  }, [outside, only, value, onChange]);
  return (
    <Form.Select
      // keyed on the options' number, so that a stored value shows once they arrive
      key={options.length}
      {...props.control}
      value={value ?? ""}
      onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
    >
      {(!required || !value) && <option value="">{t("common.choose")}</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Form.Select>
  );
}

/**
 * A list of references as checkboxes (temporal services, a data service's actions and properties).
 * With `within`, only the records matching the form's current value are offered (the properties of
 * the chosen type), and choices that stop matching are dropped.
 */
function ReferenceChecks(props: {
  kind: string;
  id: string;
  value: string[];
  within?: Within;
  /** The ids that may be chosen, when a related record narrows them (the workspace's temporal services). */
  offered?: readonly string[];
  onChange: (value: string[]) => void;
}) {
  const kind = kindsByName.get(props.kind)!;
  const can = useCan();
  const { t } = useTranslation();
  const list = useList(kind, can.index(kind));
  const { watch } = useFormContext();
  const scope = props.within ? watch(props.within.field) : undefined;
  const titles = useTitles(kind);
  const offered = (list.data ?? [])
    .filter(
      (item) =>
        (!props.within || item[props.within.via] === scope) &&
        (!props.offered || props.offered.includes(item.id)),
    )
    .map((item) => ({ ...item, label: titles(item) }))
    .sort(byLabel);
  const { value, onChange } = props;
  const stale = list.isSuccess && value.some((v) => !offered.some((item) => item.id === v));
  useEffect(() => {
    if (!stale) return;
    // An empty list, not undefined: that would bring an edit form's stored value back (the old
    // type's properties of a data service moved to another type), stale again, without end.
    onChange(value.filter((v) => offered.some((item) => item.id === v)));
  }, [stale, value, offered, onChange]);
  const toggle = (itemId: string, on: boolean) =>
    onChange(on ? [...value, itemId] : value.filter((v) => v !== itemId));
  if (props.within && !scope)
    return (
      <p id={props.id} className="form-text mb-0">
        {t("common.chooseFirst", { field: t(`fields.${props.within.field}`) })}
      </p>
    );
  return (
    <div id={props.id} role="group">
      {offered.map((item) => (
        <Form.Check
          key={item.id}
          type="checkbox"
          id={`${props.id}-${item.id}`}
          label={item.label}
          checked={value.includes(item.id)}
          onChange={(e) => toggle(item.id, e.target.checked)}
        />
      ))}
    </div>
  );
}

/** In place of a choice that depends on another field still empty: says so, and drops a value kept from before. */
function ChooseFirst(props: { id: string; field: string; value: unknown; onChange: (value: null) => void }) {
  const { t } = useTranslation();
  const { value, onChange } = props;
  useEffect(() => {
    if (value != null) onChange(null); // not undefined: that would bring an edit form's stored value back
  }, [value, onChange]);
  return (
    <p id={props.id} className="form-text mb-0">
      {t("common.chooseFirst", { field: t(`fields.${props.field}`) })}
    </p>
  );
}

/** An entity of the type the form's `typeField` names, chosen among the broker's with a search. */
function EntityChoice(props: {
  id: string;
  typeField: string;
  q?: string;
  value: string;
  invalid: boolean;
  onChange: (id: string) => void;
}) {
  const { workspaceId = "" } = useParams();
  const { watch } = useFormContext();
  const typeId = watch(props.typeField) as string | undefined;
  const type = useItem(types, typeId).data?.data as TypeRecord | undefined;
  return (
    <RelationshipSelect
      id={props.id}
      workspaceId={workspaceId}
      targetType={type}
      q={props.q}
      value={props.value}
      invalid={props.invalid}
      onChange={props.onChange}
    />
  );
}

/** A JSON value edited as text: parsed as typed; empty is no value. */
function JsonText(props: {
  control: React.ComponentProps<typeof Form.Control>;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const [text, setText] = useState(() => (props.value === undefined ? "" : JSON.stringify(props.value)));
  return (
    <Form.Control
      {...props.control}
      as="textarea"
      rows={2}
      className="font-monospace small"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const typed = e.target.value.trim();
        if (!typed) return props.onChange(undefined);
        try {
          props.onChange(JSON.parse(typed));
        } catch {
          props.onChange(typed);
        }
      }}
    />
  );
}

const toNumber = (v: unknown) => (v === "" || v === null || v === undefined ? undefined : Number(v));

const pad = (n: number) => String(n).padStart(2, "0");
/** Whole seconds since the epoch as a datetime-local value, in the browser's time zone. */
export function instantToLocal(seconds: unknown): string {
  if (typeof seconds !== "number") return "";
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
/** A datetime-local value (the browser's time zone) as whole seconds since the epoch. */
export function localToInstant(value: string): number | undefined {
  const ms = value ? new Date(value).getTime() : Number.NaN;
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** One form control for a field of a kind's definition, with its label and its translated error. */
export function FieldInput({
  field,
  mode,
  secretSet,
  disabledReason,
  hint,
  optionFilter,
  offered,
  entityQuery,
}: {
  field: Field;
  mode: "create" | "update";
  secretSet?: boolean;
  /** Set when a rule across records forbids the field; shown under it. */
  disabledReason?: string;
  /** A line of help under the field. */
  hint?: string;
  optionFilter?: OptionFilter;
  /** The ids a reference list may offer (see ReferenceChecks). */
  offered?: readonly string[];
  /** For an entity field: an NGSI-LD query the offered entities must match. */
  entityQuery?: string;
}) {
  const { t } = useTranslation();
  const { register, control, formState } = useFormContext();
  const { options, dropStale, scope } = useSelectOptions(field, optionFilter);
  const within = field.input === "reference" ? field.within : undefined;
  const rawError = formState.errors[field.name] as { type?: string; message?: string } | undefined;
  const error = fieldErrorText(
    field,
    rawError?.type || rawError?.message ? rawError : firstNested(rawError),
    t,
  );
  const id = `field-${field.name}`;
  const label = labelOf(t, field);
  const required = (field.required || field.linked) && !(field.secret && mode === "update");
  const disabled = (field.createOnly && mode === "update") || !!disabledReason;
  const feedback = error && (
    <Form.Control.Feedback type="invalid" className="d-block" id={`${id}-error`}>
      {error}
    </Form.Control.Feedback>
  );
  const common = {
    id,
    isInvalid: !!error,
    "aria-describedby": error ? `${id}-error` : undefined,
    "aria-required": required || undefined,
  };

  if (field.input === "boolean") {
    return (
      <Form.Group className="mb-3">
        <Form.Check
          type="switch"
          {...common}
          label={label}
          disabled={disabled}
          aria-describedby={disabledReason ? `${id}-reason` : common["aria-describedby"]}
          {...register(field.name)}
        />
        {disabledReason && (
          <Form.Text id={`${id}-reason`} className="d-block">
            {disabledReason}
          </Form.Text>
        )}
        {feedback}
      </Form.Group>
    );
  }
  let control_: React.ReactNode;
  if (field.entityOf)
    control_ = (
      <Controller
        name={field.name}
        control={control}
        render={({ field: f }) => (
          <EntityChoice
            id={id}
            typeField={field.entityOf!}
            q={entityQuery}
            value={(f.value as string | undefined) ?? ""}
            invalid={!!error}
            onChange={(value) => f.onChange(value || undefined)}
          />
        )}
      />
    );
  else if (within && !scope)
    control_ = (
      <Controller
        name={field.name}
        control={control}
        render={({ field: f }) => (
          <ChooseFirst id={id} field={within.field} value={f.value} onChange={f.onChange} />
        )}
      />
    );
  else
    switch (field.input) {
      case "enum":
      case "reference":
        // Controlled, so that a stored reference shows once its options have loaded.
        control_ = (
          <Controller
            name={field.name}
            control={control}
            render={({ field: f }) => (
              <Select
                options={options}
                required={!!required && !disabled}
                value={f.value as string | undefined}
                dropStale={dropStale}
                onChange={f.onChange}
                control={{ ...common, disabled, name: f.name, ref: f.ref, onBlur: f.onBlur }}
              />
            )}
          />
        );
        break;
      case "integer":
      case "number":
        control_ = (
          <Form.Control
            {...common}
            type="number"
            inputMode={field.input === "integer" ? "numeric" : "decimal"}
            step={field.input === "integer" ? 1 : "any"}
            min={field.min}
            max={field.max}
            {...register(field.name, { setValueAs: toNumber })}
          />
        );
        break;
      case "json":
        // Typed as JSON and parsed on save (a WoT input's enum): text that is not JSON stays text, which the API refuses.
        control_ = (
          <Controller
            name={field.name}
            control={control}
            render={({ field: f }) => (
              <JsonText
                control={{ ...common, name: f.name, ref: f.ref, onBlur: f.onBlur }}
                value={f.value}
                onChange={f.onChange}
              />
            )}
          />
        );
        break;
      case "textarea":
      case "markup":
        control_ = (
          <Form.Control
            {...common}
            as="textarea"
            rows={field.input === "markup" ? 6 : 3}
            className={field.input === "markup" ? "font-monospace small" : undefined}
            {...register(field.name)}
          />
        );
        break;
      case "url":
        control_ = (
          <Form.Control
            {...common}
            type="url"
            inputMode="url"
            {...register(field.name, { setValueAs: (v) => (v === "" ? undefined : v) })}
          />
        );
        break;
      case "references":
        control_ = (
          <Controller
            name={field.name}
            control={control}
            render={({ field: f }) => (
              <ReferenceChecks
                kind={field.kind}
                id={id}
                value={(f.value as string[] | undefined) ?? []}
                within={field.within}
                offered={offered}
                onChange={f.onChange}
              />
            )}
          />
        );
        break;
      case "instant":
        control_ = (
          <Controller
            name={field.name}
            control={control}
            render={({ field: f }) => (
              <Form.Control
                {...common}
                type="datetime-local"
                name={f.name}
                ref={f.ref}
                onBlur={f.onBlur}
                value={instantToLocal(f.value)}
                onChange={(e) => f.onChange(localToInstant(e.target.value))}
              />
            )}
          />
        );
        break;
      case "headers":
        control_ = (
          <Controller
            name={field.name}
            control={control}
            render={({ field: f }) => (
              <HeadersEditor value={f.value} onChange={f.onChange} invalid={!!error} />
            )}
          />
        );
        break;
      case "strings":
        control_ = (
          <Controller
            name={field.name}
            control={control}
            render={({ field: f }) => (
              <StringsEditor
                id={id}
                value={f.value as string[] | undefined}
                onChange={f.onChange}
                blank={field.blank}
                invalid={!!error}
                describedBy={common["aria-describedby"]}
              />
            )}
          />
        );
        break;
      case "lines":
        control_ = (
          <div className="d-grid gap-2">
            {Array.from({ length: field.count }, (_, i) => (
              <Form.Control
                key={i}
                id={i === 0 ? id : `${id}-${i}`}
                aria-label={t("certificates.line", { number: i + 1 })}
                placeholder={t("certificates.line", { number: i + 1 })}
                className="font-monospace"
                isInvalid={!!error}
                {...register(`${field.name}.${i}`)}
              />
            ))}
          </div>
        );
        break;
      default:
        control_ = (
          <Form.Control
            {...common}
            type={field.secret ? "password" : "text"}
            autoComplete={field.secret ? "new-password" : "off"}
            placeholder={field.secret && mode === "update" && secretSet ? "••••••••" : undefined}
            {...register(field.name, { setValueAs: (v) => (v === "" ? undefined : v) })}
          />
        );
    }
  return (
    <Form.Group className="mb-3">
      <Form.Label htmlFor={id}>
        {label}
        {required && (
          <span aria-hidden="true" className="text-danger">
            {" "}
            *
          </span>
        )}
      </Form.Label>
      {control_}
      {hint && <Form.Text className="d-block">{hint}</Form.Text>}
      {field.secret && mode === "update" && (
        <Form.Text>
          {secretSet ? t("common.set") : t("common.notSet")} · {t("common.keepSecret")}
        </Form.Text>
      )}
      {feedback}
    </Form.Group>
  );
}

/** Errors of array fields sit on their items. */
function firstNested(error: unknown): { type?: string; message?: string } | undefined {
  if (!error || typeof error !== "object") return undefined;
  for (const value of Object.values(error)) {
    if (value && typeof value === "object" && "type" in value)
      return value as { type?: string; message?: string };
  }
  return undefined;
}
