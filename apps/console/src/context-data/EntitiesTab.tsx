import { lazy, Suspense, useEffect, useState } from "react";
import { Alert, Button, Card, Form, InputGroup, Pagination, Spinner, Table } from "react-bootstrap";
import { Link, useSearchParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { routeTo } from "../routes.ts";
import { nameOf, type TypeRecord } from "./entityModel.ts";
import { paths, useEntities } from "./entityQueries.ts";
import { firstPageQuery } from "../startup.ts";
import { EntityCard } from "./EntityCard.tsx";
import { LiveBadge, useLiveEntities } from "./live.tsx";
import { BellIcon, MapIcon, PlusIcon, TransferIcon } from "./icons.tsx";
import { entityHref, withQuery } from "./links.ts";

// The dialog carries papaparse: loaded when it opens.
const ImportExportDialog = lazy(() => import("./ImportExportDialog.tsx"));

export const pageSizes = [20, 50, 100] as const;

/** Waits for the typing to pause before searching. */
function useDebounced(value: string, ms = 300) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * The entities of a type, a page at a time from the server (limit/offset, X-Total-Count), with a
 * search by id or name; the server pages, so 100,000 entities cost what 20 do.
 */
function EntityList({
  workspaceId,
  type,
  onTab,
}: {
  workspaceId: string;
  type: TypeRecord;
  onTab: (tab: string) => void;
}) {
  const { t } = useTranslation();
  const can = useCan();
  // Page, page size and search live in the address: Back and reload return to the same place.
  const [params, setParams] = useSearchParams();
  const sizeParam = Number(params.get("size"));
  const size: number = (pageSizes as readonly number[]).includes(sizeParam) ? sizeParam : 20;
  const page = Math.max(0, Math.floor(Number(params.get("page")) || 1) - 1);
  const search = params.get("search") ?? "";
  const [text, setText] = useState(search);
  const [dialog, setDialog] = useState(false);
  const typed = useDebounced(text.trim());
  // Entities written by others (devices, other consoles) appear without a reload.
  const live = useLiveEntities({ workspaceId, type: type.name });
  const go = (change: { page?: number; size?: number; search?: string }, replace = false) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        const set = (name: string, value: string | undefined) =>
          value ? next.set(name, value) : next.delete(name);
        if (change.size !== undefined) set("size", change.size === 20 ? undefined : String(change.size));
        if (change.search !== undefined) set("search", change.search);
        set("page", change.page ? String(change.page + 1) : undefined);
        return next;
      },
      { replace },
    );
  const setPage = (p: number) => go({ page: p });
  useEffect(() => {
    if (typed !== search) go({ search: typed, page: 0 }, true);
  }, [typed]);
  // Back or forward to another search: the box shows it.
  useEffect(() => setText(search), [search]);
  // The first page is the query prefetch.ts starts with the view; a search has no count.
  const { count, ...names } = firstPageQuery(type.id);
  const query: Record<string, string> = {
    ...names,
    limit: String(size),
    offset: String(page * size),
    ...(search ? { search } : { count }),
  };
  const list = useEntities(workspaceId, query);
  const entities = list.data?.entities ?? [];
  const total = list.data?.total;
  const pages = total !== undefined ? Math.max(1, Math.ceil(total / size)) : undefined;
  const hasNext = pages !== undefined ? page + 1 < pages : entities.length === size;

  return (
    <Card>
      <Card.Header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
        <div className="d-flex align-items-center gap-2">
          <h2 className="h5 mb-0 text-break">{type.name}</h2>
          <LiveBadge state={live} />
        </div>
        <div className="d-flex flex-wrap gap-2">
          <Button variant="outline-secondary" size="sm" onClick={() => onTab("subscriptions")}>
            <BellIcon /> <span className="visually-hidden-sm">{t("subscriptions.tab")}</span>
          </Button>
          <Button variant="outline-secondary" size="sm" onClick={() => onTab("map")}>
            <MapIcon /> <span className="visually-hidden-sm">{t("map.tab")}</span>
          </Button>
          <Button variant="outline-secondary" size="sm" onClick={() => setDialog(true)}>
            <TransferIcon /> <span className="visually-hidden-sm">{t("importExport.button")}</span>
          </Button>
          {can.can("POST", paths.entities(workspaceId)) && (
            <Link
              to={withQuery(routeTo("entities.create", { workspaceId }), { typeId: type.id })}
              className="btn btn-primary btn-sm"
            >
              <PlusIcon /> {t("entities.create")}
            </Link>
          )}
        </div>
      </Card.Header>
      <Card.Body>
        <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
          <InputGroup size="sm" style={{ maxWidth: "22rem" }}>
            <Form.Control
              type="search"
              placeholder={t("entities.searchPlaceholder")}
              aria-label={t("entities.search")}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </InputGroup>
          <Form.Group className="d-flex align-items-center gap-1" controlId="entities-page-size">
            <Form.Label className="small mb-0">{t("entities.pageSize")}</Form.Label>
            <Form.Select
              size="sm"
              style={{ width: "auto" }}
              value={size}
              onChange={(e) => go({ size: Number(e.target.value), page: 0 })}
            >
              {pageSizes.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <span className="small text-body-secondary ms-auto" data-testid="entities-total">
            {total !== undefined && t("entities.total", { count: total })}
            {list.data?.order === "broker" && ` ${t("entities.brokerOrder")}`}
          </span>
        </div>
        {list.isError ? (
          <ErrorAlert error={list.error} />
        ) : list.isPending ? (
          <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
        ) : entities.length === 0 ? (
          <Alert variant="info" className="mb-0">
            {search ? t("entities.noMatch") : t("entities.none")}
          </Alert>
        ) : (
          <Table
            size="sm"
            hover
            responsive
            className="font-monospace small mb-2"
            aria-label={t("entities.listOf", { type: type.name })}
            aria-busy={list.isFetching}
          >
            <thead>
              <tr>
                <th scope="col">{t("entities.name")}</th>
                <th scope="col">{t("entities.id")}</th>
              </tr>
            </thead>
            <tbody>
              {entities.map((entity) => (
                <tr key={entity.id}>
                  <td className="text-break">{nameOf(entity) ?? ""}</td>
                  <td className="text-break">
                    <Link to={entityHref(workspaceId, type.id, entity.id)}>{entity.id}</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        {(page > 0 || hasNext) && (
          <Pagination size="sm" className="mb-0" aria-label={t("entities.pages")}>
            <Pagination.First
              disabled={page === 0}
              onClick={() => setPage(0)}
              aria-label={t("entities.firstPage")}
            />
            <Pagination.Prev
              disabled={page === 0}
              onClick={() => setPage(page - 1)}
              aria-label={t("entities.previousPage")}
            />
            <Pagination.Item active>
              {pages !== undefined
                ? t("entities.pageOf", { page: page + 1, pages })
                : t("entities.page", { page: page + 1 })}
            </Pagination.Item>
            <Pagination.Next
              disabled={!hasNext}
              onClick={() => setPage(page + 1)}
              aria-label={t("entities.nextPage")}
            />
            {pages !== undefined && (
              <Pagination.Last
                disabled={!hasNext}
                onClick={() => setPage(pages - 1)}
                aria-label={t("entities.lastPage")}
              />
            )}
          </Pagination>
        )}
      </Card.Body>
      {dialog && (
        <Suspense fallback={null}>
          <ImportExportDialog workspaceId={workspaceId} type={type} onClose={() => setDialog(false)} />
        </Suspense>
      )}
    </Card>
  );
}

/** The entities tab: no type, the type's list, or one entity's card. */
export function EntitiesTab(props: {
  workspaceId: string;
  type: TypeRecord | undefined;
  entityId: string | null;
  onTab: (tab: string) => void;
}) {
  const { t } = useTranslation();
  if (!props.type) return <Alert variant="info">{t("entities.noTypeSelected")}</Alert>;
  if (props.entityId)
    return (
      <EntityCard
        key={props.entityId}
        workspaceId={props.workspaceId}
        type={props.type}
        entityId={props.entityId}
      />
    );
  return (
    <EntityList key={props.type.id} workspaceId={props.workspaceId} type={props.type} onTab={props.onTab} />
  );
}
