import { useMemo, useState } from "react";
import { Alert, Button, Form, InputGroup, Spinner, Table } from "react-bootstrap";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import { contractDetails } from "@orrery/model";
import { ApiError, call } from "../api.ts";
import { TrashIcon } from "../app/icons.tsx";
import { notify } from "../app/Toasts.tsx";
import { ConfirmDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import type { Item } from "../resources/queries.ts";
import "texts:trust";

/**
 * A user of the workspace's identity manager with the names of their roles (spec section 3, User):
 * held directly, and through the organisations they belong to.
 */
interface User {
  id: string;
  username: string;
  email?: string;
  roles: string[];
  organizationRoles: Array<{ role: string; organization: string }>;
}

/** Organisations holding roles that the identity manager's management account may not read (not listed). */
interface Unreadable {
  id: string;
  name: string;
}

/** The users and the organisations left out; the spec's bare list (no organisation left out) is read too. */
const usersOf = (answer: User[] | { users: User[]; unreadableOrganizations: Unreadable[] }) =>
  Array.isArray(answer) ? { users: answer, unreadableOrganizations: [] } : answer;

const usersKey = (workspaceId: string) => ["users", workspaceId] as const;
const rolePath = (workspaceId: string, userId: string, role: string) =>
  `/workspace/${encodeURIComponent(workspaceId)}/users/${encodeURIComponent(userId)}/roles/${encodeURIComponent(role)}`;
const label = (user: User) => (user.email ? `${user.username} (${user.email})` : user.username);
/** The organisations through which the user holds the role. */
const organizationsOf = (user: User, role: string) =>
  user.organizationRoles.filter((o) => o.role === role).map((o) => o.organization);

/**
 * The users panel of a contract detail: who holds its role scope name in the workspace's identity
 * manager, each with a remove button (asked first) when they hold it themselves, or the
 * organisation they hold it through (which only the organisation can take away), and a searchable
 * choice of the others to assign it to. Changing them needs update permission on the detail (the API checks it too). A
 * workspace without a usable identity manager says what to configure where the panel would be.
 */
export function UsersPanel({ detail }: { detail: Item }) {
  const { t } = useTranslation();
  const { workspaceId = "" } = useParams();
  const can = useCan();
  const client = useQueryClient();
  const role = detail.roleScopeName as string | undefined;
  const usersPath = `/workspace/${encodeURIComponent(workspaceId)}/users`;
  // Who may not read the users (the showroom: personal data) is not shown the panel.
  const mayRead = can.can("GET", `/workspace/${workspaceId}/users`);
  const users = useQuery({
    queryKey: usersKey(workspaceId),
    queryFn: async () =>
      usersOf((await call<User[]>(usersPath, { query: { include: "unreadableOrganizations" } })).data),
    enabled: !!role && mayRead,
    retry: false,
  });
  const list = users.data?.users;
  const unreadable = users.data?.unreadableOrganizations ?? [];
  const [search, setSearch] = useState("");
  const [chosen, setChosen] = useState("");
  const [removing, setRemoving] = useState<User>();
  const change = useMutation({
    mutationFn: ({ user, assign }: { user: User; assign: boolean }) =>
      call(rolePath(workspaceId, user.id, role!), { method: assign ? "POST" : "DELETE" }),
    onSuccess: async (_r, { user, assign }) => {
      notify(t(assign ? "users.assigned" : "users.removed", { user: user.username, role }));
      setChosen("");
      await client.invalidateQueries({ queryKey: usersKey(workspaceId) });
    },
  });
  const holders = useMemo(
    () => (list ?? []).filter((u) => u.roles.includes(role ?? "") || organizationsOf(u, role ?? "").length),
    [list, role],
  );
  const others = useMemo(() => {
    const text = search.trim().toLowerCase();
    return (list ?? []).filter(
      (u) => !u.roles.includes(role ?? "") && (!text || label(u).toLowerCase().includes(text)),
    );
  }, [list, role, search]);
  const mayChange = can.update(contractDetails, detail.id);
  const byId = (id: string) => list?.find((u) => u.id === id);

  if (!mayRead) return null;
  let body;
  if (!role) body = <p className="text-body-secondary mb-0">{t("users.noRoleScopeName")}</p>;
  else if (users.isPending)
    body = <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />;
  else if (users.error instanceof ApiError && users.error.status === 400)
    // No identity manager, or not a password grant: what to configure, not a failure.
    body = (
      <Alert variant="info" className="mb-0">
        {users.error.body.detail}
      </Alert>
    );
  else if (users.isError) body = <ErrorAlert error={users.error} className="mb-0" />;
  else
    body = (
      <>
        <ErrorAlert error={change.error} />
        {unreadable.length > 0 && (
          <Alert variant="warning" data-testid="users-unreadable-organizations">
            {t("users.unreadableOrganizations", {
              organizations: unreadable.map((o) => o.name).join(", "),
              count: unreadable.length,
            })}
          </Alert>
        )}
        {holders.length ? (
          <Table size="sm" className="align-middle">
            <thead>
              <tr>
                <th scope="col">{t("users.username")}</th>
                <th scope="col">{t("users.email")}</th>
                <th scope="col">{t("users.heldThrough")}</th>
                {mayChange && (
                  <th scope="col">
                    <span className="visually-hidden">{t("users.actions")}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {holders.map((user) => (
                <tr key={user.id}>
                  <td>{user.username}</td>
                  <td>{user.email}</td>
                  <td>
                    {[
                      ...(user.roles.includes(role) ? [t("users.directly")] : []),
                      ...organizationsOf(user, role),
                    ].join(", ")}
                  </td>
                  {mayChange && (
                    <td className="text-end">
                      {user.roles.includes(role) ? (
                        <Button
                          variant="outline-danger"
                          size="sm"
                          onClick={() => setRemoving(user)}
                          disabled={change.isPending}
                          title={t("users.remove", { user: user.username })}
                          aria-label={t("users.remove", { user: user.username })}
                        >
                          <TrashIcon />
                        </Button>
                      ) : (
                        <span className="small text-body-secondary">
                          {t("users.throughOrganization", {
                            organization: organizationsOf(user, role).join(", "),
                          })}
                        </span>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
        ) : (
          <Alert variant="info">{t("users.none", { role })}</Alert>
        )}
        {mayChange && (
          <Form
            style={{ maxWidth: "36rem" }}
            onSubmit={(e) => {
              e.preventDefault();
              const user = byId(chosen);
              if (user) change.mutate({ user, assign: true });
            }}
          >
            <Form.Label htmlFor="users-assign">{t("users.assignLabel", { role })}</Form.Label>
            <Form.Control
              type="search"
              size="sm"
              className="mb-1"
              placeholder={t("users.search")}
              aria-label={t("users.search")}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <InputGroup>
              <Form.Select id="users-assign" value={chosen} onChange={(e) => setChosen(e.target.value)}>
                <option value="">{t("common.choose")}</option>
                {others.map((user) => (
                  <option key={user.id} value={user.id}>
                    {label(user)}
                  </option>
                ))}
              </Form.Select>
              <Button type="submit" disabled={!chosen || change.isPending}>
                {t("users.assign")}
              </Button>
            </InputGroup>
          </Form>
        )}
      </>
    );

  return (
    <section className="mt-4 pt-3 border-top" aria-labelledby="users-panel-title">
      <h2 id="users-panel-title" className="h6 fw-semibold">
        {t("users.title")}
      </h2>
      {body}
      <ConfirmDialog
        show={!!removing}
        message={t("users.confirmRemove", { user: removing?.username, role })}
        onYes={() => {
          if (removing) change.mutate({ user: removing, assign: false });
          setRemoving(undefined);
        }}
        onNo={() => setRemoving(undefined)}
      />
    </section>
  );
}
