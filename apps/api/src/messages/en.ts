/**
 * Every sentence the API writes for people, by a stable code that clients may rely on, in English.
 * `{name}` is a parameter of the message (sent beside it as `params`). French is in fr.ts, and a
 * message missing there does not compile.
 */
export const en = {
  // Titles of problems, by HTTP status.
  "title.400": "Bad request",
  "title.401": "Unauthorized",
  "title.403": "Forbidden",
  "title.404": "Not found",
  "title.405": "Method not allowed",
  "title.409": "Conflict",
  "title.412": "Precondition failed",
  "title.413": "Payload too large",
  "title.415": "Unsupported media type",
  "title.500": "Internal server error",
  "title.501": "Not implemented",
  "title.502": "Bad gateway",
  "title.504": "Gateway timeout",
  "title.invalid": "The submitted data is invalid",

  "server.failed": "The server failed; the error is in its log.",
  "request.badUrl": "The request target is not a valid URL: its percent-encoding is broken.",
  "request.noRoute": "No route {method} {path}",
  "request.hostile": "The request cannot be accepted: {where}{at} {flaw}.",
  "request.hostile.nul": "contains a NUL character (\\u0000)",
  "request.hostile.surrogate": "contains a lone UTF-16 surrogate, which is not Unicode text",
  "request.hostile.deep": "is nested deeper than {depth} levels",
  "request.where.path": "the path",
  "request.where.query": "the query",
  "request.where.body": "the body",
  "request.invalidJson": "The body is not valid JSON: {reason}",
  "request.tooLarge": "The body is larger than the limit of {limit} bytes.",
  "request.unsupportedMediaType": "The content type {type} is not accepted here.",

  "auth.unauthenticated": "You must be authenticated: send Authorization: Bearer <token>.",
  "auth.unknownToken": "The access token is unknown or expired. Sign in again.",
  "auth.forbidden": "You are not allowed to {method} {path}.",

  // Field errors (the field's name comes before the sentence).
  "field.invalid": "is invalid",
  "field.required": "is required",
  "field.unknownFields": "has unknown fields: {keys}",
  "field.type": "must be {expected}",
  "field.type.string": "must be text",
  "field.type.number": "must be a number",
  "field.type.int": "must be a whole number",
  "field.type.boolean": "must be true or false",
  "field.type.array": "must be a list",
  "field.type.object": "must be an object",
  "field.oneOf": "must be one of {values}",
  "field.tooShort": "must have at least {minimum} characters",
  "field.tooLong": "must have at most {maximum} characters",
  "field.notEmpty": "must not be empty",
  "field.minItems": "must have at least {minimum} items",
  "field.maxItems": "must have at most {maximum} items",
  "field.min": "must be at least {minimum}",
  "field.max": "must be at most {maximum}",
  "field.format": "must be a valid {format}",
  "field.reserved": '"{value}" is reserved by NGSI-LD: {because}',
  "reserved.entity": "every entity has a member of that name",
  "reserved.attribute": "every attribute may have a member of that name",
  "reserved.system": "the broker sets it itself",
  "reserved.temporal": "every temporal value has a member of that name",
  "reserved.notification": "notifications carry a member of that name",

  "conflict.dataModelName": 'A workspace already uses the data model name "{value}".',
  "conflict.typeName": 'The workspace already has a type named "{value}".',
  "conflict.propertyName": 'The type already has a property named "{value}" at this place.',
  "conflict.unique": "The record clashes with another one.",

  // The development identity manager's login page.
  "idm.title": "Orrery development identity manager",
  "idm.signIn": "Sign in",
  "idm.note": "Development identity manager. Do not expose it to the internet.",
  "idm.username": "Username",
  "idm.password": "Password",
  "idm.demoUsers": "Demo users",
  "idm.colon": ": ",
  "idm.user.admin": "everything",
  "idm.user.operator": "workspace work, no platform administration",
  "idm.user.viewer": "read only",
  "idm.user.showroom": "showroom mode",
  "idm.incomplete": "This sign-in link is incomplete. Start again from the console.",
  "idm.wrongPassword": "Wrong username or password.",
} as const;

export type MessageCode = keyof typeof en;
