import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo, useRef, useState } from "react";
import { Button, Form } from "react-bootstrap";
import { FormProvider, useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { normalize, whenHolds, type KindDefinition } from "@orrery/model";
import { writeSchema } from "@orrery/model/schema";
import { ApiError } from "../api.ts";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { MessageDialog } from "../errors/Dialogs.tsx";
import { FieldInput } from "./FieldInput.tsx";
import { useSave, type Item } from "./queries.ts";

type Values = Record<string, unknown>;

/**
 * The one form of every kind. A field whose `when` stops holding is hidden and its value cleared,
 * so that it comes back empty (or at its default): the spec's clearing rules, read from the model.
 * The same zod schema as the API validates before anything is sent.
 */
export function ResourceForm(props: {
  kind: KindDefinition;
  item?: Item;
  etag?: string | null;
  onSaved: (item: Item) => void;
}) {
  const { kind, item } = props;
  const { t } = useTranslation();
  const mode = item ? "update" : "create";
  const defaultValues = useMemo(() => {
    const values: Values = {};
    for (const field of kind.fields) {
      const value = item?.[field.name];
      if (field.secret || value === undefined) continue;
      values[field.name] = value;
    }
    return values;
  }, [kind, item]);
  const form = useForm<Values>({
    defaultValues,
    resolver: zodResolver(writeSchema(kind, mode) as never) as unknown as Resolver<Values>,
  });
  const save = useSave(kind);
  const [failed, setFailed] = useState(false);
  const current = normalize(kind, form.watch()) as Values;
  const visible = kind.fields.filter((field) => whenHolds(field.when, current));
  const visibleNames = visible.map((f) => f.name).join(",");
  const previous = useRef(visibleNames);
  useEffect(() => {
    const before = previous.current.split(",");
    previous.current = visibleNames;
    // Forget the stored value too, so that a field shown again starts empty (or at its default).
    for (const name of before)
      if (!visibleNames.split(",").includes(name)) form.resetField(name, { defaultValue: null });
  }, [visibleNames, form]);

  const submit = form.handleSubmit((body) =>
    save.mutate(
      { id: item?.id, etag: props.etag, body },
      {
        onSuccess: ({ data }) => props.onSaved(data),
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400) {
            for (const e of error.body.errors ?? []) {
              const name = e.path.split(".")[0]!;
              if (kind.fields.some((f) => f.name === name))
                form.setError(name, { type: "server", message: e.message });
            }
          }
          setFailed(true);
        },
      },
    ),
  );

  const secretSet = (name: string) => Boolean((item?.[name] as { set?: boolean } | undefined)?.set);
  return (
    <FormProvider {...form}>
      <ErrorAlert error={save.error} />
      <Form noValidate onSubmit={submit}>
        {visible.map((field) => (
          <FieldInput key={field.name} field={field} mode={mode} secretSet={secretSet(field.name)} />
        ))}
        <Button type="submit" disabled={save.isPending}>
          {mode === "create" ? t("common.create") : t("common.save")}
        </Button>
      </Form>
      <MessageDialog
        show={failed}
        title={t("common.errorTitle")}
        message={t(mode === "create" ? "operations.creationFailed" : "operations.updateFailed", {
          of: t(`kinds.${kind.kind}.of`),
        })}
        detail={explain(save.error, t)}
        onClose={() => setFailed(false)}
      />
    </FormProvider>
  );
}
