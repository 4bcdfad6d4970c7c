/**
 * `npm run token -- <user>` prints a bearer token for a demo user of the dev identity manager,
 * asking the running server (PORT, default 3000) like any client would.
 */
const username = process.argv[2];
if (!username) {
  console.error("usage: npm run token -- <admin|operator|viewer|showroom>");
  process.exit(2);
}
const base = (process.env.PUBLIC_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/$/, "");
try {
  const response = await fetch(`${base}/api/auth/dev-token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: process.env.PASSWORD ?? username }),
  });
  const body = (await response.json()) as { token?: string; detail?: string };
  if (!response.ok || !body.token) {
    console.error(`The server refused: ${body.detail ?? response.status}`);
    process.exit(1);
  }
  console.log(body.token);
} catch (err) {
  console.error(`Cannot reach Orrery at ${base} (${(err as Error).message}). Start it with npm start first.`);
  process.exit(1);
}
