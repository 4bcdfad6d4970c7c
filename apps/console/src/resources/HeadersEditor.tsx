import { useId, useState } from "react";
import { Button, Form, InputGroup, Table } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";

/** A header's value as the API reads it: `{ set: true }` for a stored one, which is never shown. */
export type HeaderValue = string | { set: true };

/**
 * The custom headers map: add an entry with Set (needs a name), remove entries; the map disappears
 * when emptied. A stored value stays `{ set: true }` in the form, which the API reads as "keep it".
 */
export function HeadersEditor(props: {
  value: Record<string, HeaderValue> | undefined;
  onChange: (value: Record<string, HeaderValue> | undefined) => void;
  invalid?: boolean;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const id = useId();
  const entries = Object.entries(props.value ?? {});
  const set = () => {
    props.onChange({ ...props.value, [name.trim()]: value });
    setName("");
    setValue("");
  };
  const remove = (key: string) => {
    const next = { ...props.value };
    delete next[key];
    props.onChange(Object.keys(next).length ? next : undefined);
  };
  return (
    <div>
      {entries.length === 0 ? (
        <p className="text-body-secondary small mb-2">{t("headers.none")}</p>
      ) : (
        <Table size="sm" className="mb-2">
          <tbody>
            {entries.map(([key, v]) => (
              <tr key={key}>
                <td className="font-monospace">{key}</td>
                <td className="text-break">
                  {typeof v === "string" ? v : <em>{t("headers.secretValue")}</em>}
                </td>
                <td className="text-end">
                  <Button
                    variant="outline-danger"
                    size="sm"
                    onClick={() => remove(key)}
                    aria-label={`${t("common.remove")} ${key}`}
                  >
                    ✕
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <InputGroup size="sm" className="flex-wrap">
        <Form.Control
          id={`${id}-name`}
          aria-label={t("headers.name")}
          placeholder={t("headers.name")}
          value={name}
          onChange={(e) => setName(e.target.value)}
          isInvalid={props.invalid}
        />
        <Form.Control
          aria-label={t("headers.value")}
          placeholder={t("headers.value")}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <Button variant="outline-secondary" onClick={set} disabled={!name.trim()}>
          {t("headers.set")}
        </Button>
      </InputGroup>
    </div>
  );
}
