import { useState } from "react";
import { Badge, Button, Form, InputGroup } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";

/**
 * A list of short strings (a broker client's tenants): entries added with Add, Enter or by leaving
 * the box, removed with their ✕. With `blank`, the empty string is a value of its own (the default tenant), chosen
 * with a switch and written as the text of that key. The list disappears when emptied.
 */
export function StringsEditor(props: {
  id: string;
  value: string[] | undefined;
  onChange: (value: string[] | undefined) => void;
  blank?: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const { t } = useTranslation();
  const [entry, setEntry] = useState("");
  const list = props.value ?? [];
  const set = (next: string[]) => props.onChange(next.length ? next : undefined);
  const add = () => {
    const value = entry.trim();
    if (!value) return;
    // Given twice, it is kept twice: the schema then says so under the field.
    set([...list, value]);
    setEntry("");
  };
  const named = list.map((value, index) => ({ value, index })).filter(({ value }) => value !== "");
  return (
    <div>
      {props.blank !== undefined && (
        <Form.Check
          type="switch"
          id={`${props.id}-blank`}
          className="mb-2"
          label={t(props.blank)}
          checked={list.includes("")}
          onChange={(e) => set(e.target.checked ? ["", ...list] : list.filter((v) => v !== ""))}
        />
      )}
      {named.length > 0 && (
        <ul className="list-unstyled d-flex flex-wrap gap-2 mb-2" aria-label={t("strings.entries")}>
          {named.map(({ value, index }) => (
            <li key={index}>
              <Badge
                bg="secondary"
                className="d-inline-flex align-items-center gap-1 font-monospace fw-normal"
              >
                {value}
                <Button
                  variant="link"
                  size="sm"
                  className="p-0 text-white text-decoration-none lh-1"
                  onClick={() => set(list.filter((_, i) => i !== index))}
                  aria-label={t("strings.remove", { value })}
                >
                  ✕
                </Button>
              </Badge>
            </li>
          ))}
        </ul>
      )}
      <InputGroup size="sm">
        <Form.Control
          id={props.id}
          value={entry}
          placeholder={t("strings.placeholder")}
          isInvalid={props.invalid}
          aria-describedby={props.describedBy}
          onChange={(e) => setEntry(e.target.value)}
          // What was typed and not yet added is added when leaving the box (Create is clicked next).
          onBlur={add}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            e.preventDefault(); // not the form's submit
            add();
          }}
        />
        <Button variant="outline-secondary" onClick={add} disabled={!entry.trim()}>
          {t("strings.add")}
        </Button>
      </InputGroup>
    </div>
  );
}
