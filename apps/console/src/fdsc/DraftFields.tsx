import type { ReactNode } from "react";
import { Button, Form } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";

/**
 * A labelled text input of an FDSC draft (an issuer, a credential configuration, a policy): the
 * label names the control for screen readers and tests. `rows` makes it a text area (values one a
 * line); `children` go under the control (a hint, a suggestion button).
 */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  rows?: number;
  placeholder?: string;
  list?: string;
  readOnly?: boolean;
  required?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <Form.Group className={props.className} controlId={props.id}>
      <Form.Label>{props.label}</Form.Label>
      <Form.Control
        {...(props.rows ? { as: "textarea", rows: props.rows } : { type: props.type })}
        value={props.value}
        placeholder={props.placeholder}
        list={props.list}
        readOnly={props.readOnly}
        required={props.required}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.children}
    </Form.Group>
  );
}

/** A labelled choice of an FDSC draft; `children` are its options. */
export function SelectField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <Form.Group controlId={props.id}>
      <Form.Label>{props.label}</Form.Label>
      <Form.Select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.children}
      </Form.Select>
    </Form.Group>
  );
}

/** Adds a row (a claim, a credential, a scope, a constraint) to a draft. */
export function AddButton({
  label,
  onClick,
  className,
}: {
  label: string;
  onClick: () => void;
  className?: string;
}) {
  return (
    <Button variant="outline-secondary" size="sm" className={className} onClick={onClick}>
      {label}
    </Button>
  );
}

/** Removes a row from a draft; "Remove" unless the row says what it is. */
export function RemoveButton({ label, onClick }: { label?: string; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button variant="outline-danger" size="sm" onClick={onClick}>
      {label ?? t("common.remove")}
    </Button>
  );
}

/** The list with its row `i` changed by `patch`. */
export const patchAt = <T,>(list: readonly T[], i: number, patch: Partial<T>): T[] =>
  list.map((x, j) => (j === i ? { ...x, ...patch } : x));

/** The list without its row `i`. */
export const withoutAt = <T,>(list: readonly T[], i: number): T[] => list.filter((_x, j) => j !== i);
