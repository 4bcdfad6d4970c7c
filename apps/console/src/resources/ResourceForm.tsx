import { zodResolver } from "@hookform/resolvers/zod";
import { Fragment, useEffect, useMemo, useRef, useState } from "react";
import { Form } from "react-bootstrap";
import { FormProvider, useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "../i18n/index.ts";
import { missingRequired, normalize, whenHolds, type KindDefinition } from "@orrery/model";
import { writeSchema } from "@orrery/model/schema";
import { ApiError } from "../api.ts";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { MessageDialog, useFailureDialog } from "../errors/Dialogs.tsx";
import { selfReference } from "./ChildList.tsx";
import { useHiddenFields } from "../workspaces/workspaceRules.ts";
import { FieldInput, type OptionFilter } from "./FieldInput.tsx";
import { useSave, type Item } from "./queries.ts";
import { serverFieldText } from "./fieldErrors.ts";
import { FormButtons } from "./FormButtons.tsx";

type Values = Record<string, unknown>;

/** What related records decide about a form (see useWorkspaceRules and useContractRules). */
export interface FormRules {
  /** Fields to disable, with the reason shown under them. */
  locks: Record<string, string>;
  /** The ids a reference list may offer. */
  offered?: Record<string, string[]>;
  /** The records a reference select may offer, by field, from the form's values. */
  filters?: Record<string, (item: Item, values: Values) => boolean>;
  /** Values filled in where the form has none, from its values (a WoT event's capacity value). */
  defaults?: (values: Values) => Values;
  /** A line under a field, from the form's values (where a copied value comes from). */
  hints?: (values: Values) => Record<string, string>;
  /**
   * A field asked through a switch first ("set a scope"); without `available`, neither is shown. A
   * kind's reference to itself (a property of a property) is switched so unless a rule says otherwise.
   */
  switched?: { field: string; label: string; available: boolean };
  /** The NGSI-LD query narrowing an entity field's choices, from the form's values. */
  entityQuery?: (field: string, values: Values) => string | undefined;
  defaultDataModelUrl?: string;
}

/**
 * The one form of every kind. A field whose `when` stops holding is hidden and its value cleared,
 * so that it comes back empty (or at its default): the spec's clearing rules, read from the model.
 * The same zod schema as the API validates before anything is sent.
 *
 * `fixed` fields are decided by the route (a property's type) and not shown. A kind's reference to
 * itself (a property of a property) is a switched field (see FormRules), and offers only the records
 * sharing the fixed fields (the type's other properties). `rules` come from related records: fields
 * to disable with their reason, and the workspace URL that a type or property URL must not equal.
 */
export function ResourceForm(props: {
  kind: KindDefinition;
  item?: Item;
  etag?: string | null;
  fixed?: Record<string, unknown>;
  rules?: FormRules;
  onSaved: (item: Item) => void;
  /** Leaves the form without saving (the Cancel button beside Save). */
  onCancel?: () => void;
}) {
  const { kind, item } = props;
  const fixed = useMemo(() => props.fixed ?? {}, [props.fixed]);
  const { t } = useTranslation();
  const mode = item ? "update" : "create";
  const self = selfReference(kind);
  const switched =
    props.rules?.switched ??
    (self ? { field: self, label: t(`toggles.${self}`), available: true } : undefined);
  const [switchedOn, setSwitchedOn] = useState(Boolean(switched && item?.[switched.field]));
  const nested = switchedOn && switched?.field === self;
  const [defaultUrlUsed, setDefaultUrlUsed] = useState(false);
  const defaultValues = useMemo(() => {
    const values: Values = { ...fixed };
    for (const field of kind.fields) {
      const value = item?.[field.name];
      // A new record starts at the defaults the API would apply (a contract's type, data consumer).
      if (!item && field.default !== undefined && whenHolds(field.when, values))
        values[field.name] = field.default;
      if (field.secret || value === undefined) continue;
      values[field.name] = value;
    }
    return values;
  }, [kind, item]);
  const form = useForm<Values>({
    defaultValues,
    resolver: zodResolver(writeSchema(kind, mode, "form") as never) as unknown as Resolver<Values>,
  });
  // A record saved before a field became required (a grant without the peer it was made for) says
  // what it lacks as soon as it is opened, not only once saved.
  useEffect(() => {
    if (!item) return;
    const lacking = missingRequired(kind, normalize(kind, defaultValues) as Values, "update");
    if (lacking.length) void form.trigger(lacking.map((f) => f.name));
  }, [kind, item, defaultValues, form]);
  const save = useSave(kind);
  const failure = useFailureDialog();
  const current = normalize(kind, form.watch()) as Values;
  // With the switch on and no parent chosen yet, the fields of a nested record already go away.
  const probe = self && nested && current[self] === undefined ? { ...current, [self]: "" } : current;
  const hidden = useHiddenFields(kind, current);
  // Fields the server sets (a workspace's data-model version, a role's synchronisation) are shown
  // on the show page, never as inputs.
  const visible = kind.fields.filter(
    (field) =>
      !field.readOnly &&
      !(field.name in fixed) &&
      !hidden.includes(field.name) &&
      whenHolds(field.when, probe) &&
      (field.name !== switched?.field || (switched.available && switchedOn)),
  );
  const visibleNames = visible.map((f) => f.name).join(",");
  const previous = useRef(visibleNames);
  useEffect(() => {
    const before = previous.current.split(",");
    previous.current = visibleNames;
    // Forget the stored value too, so that a field shown again starts empty (or at its default).
    for (const name of before)
      if (!visibleNames.split(",").includes(name)) form.resetField(name, { defaultValue: null });
  }, [visibleNames, form]);

  const submit = form.handleSubmit((body) => {
    if (self && nested && !body[self]) {
      form.setError(self, { type: "too_small" });
      return;
    }
    const url = body.url as string | undefined;
    if (url && props.rules?.defaultDataModelUrl && url === props.rules.defaultDataModelUrl) {
      setDefaultUrlUsed(true);
      return;
    }
    save.mutate(
      { id: item?.id, etag: props.etag, body },
      {
        onSuccess: ({ data }) => props.onSaved(data),
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400) {
            for (const e of error.body.errors ?? []) {
              const name = e.path.split(".")[0]!;
              if (kind.fields.some((f) => f.name === name))
                form.setError(name, { type: "server", message: serverFieldText(e, t) });
            }
          }
          failure.show();
        },
      },
    );
  });

  // A parent among the records sharing the fixed fields, never the record itself nor one inside it.
  const sibling = (other: Item, all: readonly Item[]) => {
    if (Object.entries(fixed).some(([name, value]) => other[name] !== value)) return false;
    for (let at: Item | undefined = other; at; at = all.find((i) => i.id === at![self!]))
      if (at.id === item?.id) return false;
    return true;
  };

  const filterOf = (name: string): OptionFilter | undefined => {
    const filter = props.rules?.filters?.[name];
    return filter && ((other) => filter(other, current));
  };
  const hints = props.rules?.hints?.(current) ?? {};
  // A default fills an empty field, and follows its source while the field still holds the last default.
  const filled = props.rules?.defaults?.(current) ?? {};
  const applied = useRef<Values>({});
  const missing = Object.entries(filled).filter(
    ([name, value]) =>
      value !== undefined &&
      value !== current[name] &&
      (current[name] === undefined || current[name] === applied.current[name]),
  );
  useEffect(() => {
    for (const [name, value] of missing) {
      applied.current[name] = value;
      form.setValue(name, value, { shouldDirty: true });
    }
  }, [JSON.stringify(missing), form]);

  const secretSet = (name: string) => Boolean((item?.[name] as { set?: boolean } | undefined)?.set);
  return (
    <FormProvider {...form}>
      <ErrorAlert error={save.error} />
      <Form noValidate onSubmit={submit}>
        {kind.fields.map((field) => (
          <Fragment key={field.name}>
            {field.name === switched?.field && switched.available && (
              <Form.Check
                type="switch"
                className="mb-3"
                id={`toggle-${field.name}`}
                label={switched.label}
                checked={switchedOn}
                onChange={(e) => setSwitchedOn(e.target.checked)}
              />
            )}
            {visible.includes(field) && (
              <FieldInput
                field={field}
                mode={mode}
                secretSet={secretSet(field.name)}
                disabledReason={props.rules?.locks[field.name]}
                offered={props.rules?.offered?.[field.name]}
                optionFilter={field.name === self ? sibling : filterOf(field.name)}
                hint={hints[field.name]}
                entityQuery={props.rules?.entityQuery?.(field.name, current)}
              />
            )}
          </Fragment>
        ))}
        <FormButtons
          label={mode === "create" ? t("common.create") : t("common.save")}
          busy={save.isPending}
          cancel={props.onCancel}
        />
      </Form>
      <MessageDialog
        show={defaultUrlUsed}
        title={t("common.warningTitle")}
        message={t("warnings.default_url_error")}
        onClose={() => setDefaultUrlUsed(false)}
      />
      {failure.dialog(
        t(mode === "create" ? "operations.creationFailed" : "operations.updateFailed", {
          of: t(`kinds.${kind.kind}.of`),
        }),
        explain(save.error, t),
      )}
    </FormProvider>
  );
}
