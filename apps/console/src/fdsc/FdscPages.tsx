import type { ReactNode } from "react";
import { Alert, Button, Card, Spinner, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import type { UseQueryResult } from "@tanstack/react-query";
import { PencilIcon, TrashIcon } from "../app/icons.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";

// The FDSC screens show records kept in a peer (issuers in a trusted issuers list, policies in a
// PAP), not kinds of the model: the generic ListPage/ShowPage/FormPage do not fit them, these do.

type Crumb = { label: string; to?: string };

/** The spinner shown while a peer answers. */
export function Loading() {
  const { t } = useTranslation();
  return <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />;
}

/** A query's answer: loading, its failure, `none` when it holds nothing (`isEmpty`), else `children`. */
export function QueryBody<T>(props: {
  query: UseQueryResult<T>;
  none?: string;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const { query } = props;
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorAlert error={query.error} />;
  if (props.none && props.isEmpty?.(query.data))
    return (
      <Alert variant="info" className="mb-0">
        {props.none}
      </Alert>
    );
  return props.children(query.data);
}

/** A list page: its trail (the last crumb is this page), its create link when permitted, a table of links. */
export function ListCard<T>(props: {
  trail: Crumb[];
  title: string;
  /** Where the create link leads; none when the user may not create. */
  create?: string;
  intro?: string;
  query: UseQueryResult<T[]>;
  none: string;
  responsive?: boolean;
  /** The header cells. */
  head: ReactNode;
  row: (item: T) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Breadcrumbs trail={props.trail} />
      <Card>
        <Card.Header className="d-flex align-items-center justify-content-between gap-2">
          <h1 className="h5 mb-0">{props.title}</h1>
          {props.create && (
            <Link to={props.create} className="btn btn-primary btn-sm">
              + {t("common.create")}
            </Link>
          )}
        </Card.Header>
        <Card.Body>
          {props.intro && <p className="small text-body-secondary">{props.intro}</p>}
          <QueryBody query={props.query} none={props.none} isEmpty={(items) => items.length === 0}>
            {(items) => (
              <Table hover responsive={props.responsive} size="sm" className="mb-0">
                <thead>
                  <tr>{props.head}</tr>
                </thead>
                <tbody>{items.map(props.row)}</tbody>
              </Table>
            )}
          </QueryBody>
        </Card.Body>
      </Card>
    </>
  );
}

/** A record's page: its trail and name, edit and delete when permitted, a failed delete's error, `children`. */
export function ShowCard(props: {
  trail: Crumb[];
  label: string;
  /** Where the edit link leads; none until the record is read, or when the user may not edit. */
  edit?: string;
  /** Asks to delete; none until the record is read, or when the user may not delete. */
  onDelete?: () => void;
  removeError: unknown;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Breadcrumbs trail={[...props.trail, { label: props.label }]} />
      <Card>
        <Card.Header className="d-flex align-items-center justify-content-between gap-2">
          <h1 className="h5 mb-0 text-break">{props.label}</h1>
          <div className="d-flex gap-2">
            {props.edit && (
              <Link to={props.edit} className="btn btn-outline-primary btn-sm" title={t("common.edit")}>
                <PencilIcon /> <span className="visually-hidden-sm">{t("common.edit")}</span>
              </Link>
            )}
            {props.onDelete && (
              <Button variant="outline-danger" size="sm" onClick={props.onDelete} title={t("common.delete")}>
                <TrashIcon /> <span className="visually-hidden-sm">{t("common.delete")}</span>
              </Button>
            )}
          </div>
        </Card.Header>
        <Card.Body>
          <ErrorAlert error={props.removeError} />
          {props.children}
        </Card.Body>
      </Card>
    </>
  );
}

/**
 * A record's form page: its trail, "Edit …" and the record read first when `editing` names one
 * (with `cancel`, its page), else the create title; `children` is the form.
 */
export function FormCard(props: {
  trail: Crumb[];
  editing?: string;
  cancel: string;
  createTitle: string;
  record: UseQueryResult<unknown>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { editing, record } = props;
  return (
    <>
      <Breadcrumbs
        trail={[
          ...props.trail,
          ...(editing
            ? [{ label: editing, to: props.cancel }, { label: t("common.edit") }]
            : [{ label: t("common.create") }]),
        ]}
      />
      <Card>
        <Card.Header>
          <h1 className="h5 mb-0 text-break">
            {editing ? t("common.editTitle", { name: editing }) : props.createTitle}
          </h1>
        </Card.Header>
        <Card.Body>
          {editing && record.isPending ? (
            <Loading />
          ) : editing && record.isError ? (
            <ErrorAlert error={record.error} />
          ) : (
            props.children
          )}
        </Card.Body>
      </Card>
    </>
  );
}
