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
  "title.429": "Too many requests",
  "title.500": "Internal server error",
  "title.501": "Not implemented",
  "title.502": "Bad gateway",
  "title.503": "Service unavailable",
  "title.504": "Gateway timeout",
  "title.invalid": "The submitted data is invalid",

  "server.failed": "The server failed; the error is in its log.",
  // The embedded broker's policy enforcement point (src/pep): why a request was refused.
  "pep.defaultTenant": "the default tenant",
  "pep.noToken":
    "This request needs a credential: send Authorization: Bearer <token> (an Orrery token, a broker client's key or a data-space consumer's token).",
  "pep.badCredential":
    "The credential cannot be read: send one token, in the Authorization header (Bearer <token>) or in X-Auth-Token.",
  "pep.unknownToken": "The token is unknown or has expired.",
  "pep.expired": "The token has expired.",
  "pep.forbidden": "You may not read the data of {tenant}: no workspace you may read uses it.",
  "pep.readOnly": "You may read the data of {tenant}, not change it.",
  "pep.noWorkspace": "No workspace uses {tenant} of this broker: only an administrator reaches it.",
  "pep.clientScope": "This broker client may not reach {tenant}.",
  "pep.clientReadOnly": "This broker client may read {tenant}, not change it.",
  "pep.privateEndpoint":
    "{endpoint} is on a private network (or its name does not resolve): only an administrator may make the broker call it.",
  "pep.noRole": "None of your roles allows this request.",
  "pep.registryDeny": "The authorization registry denies this request.",
  "pep.registryUnreachable":
    "The authorization registry (or the identity manager, verifier or policy administration point) that decides cannot be asked: the request is refused.",
  "pep.policyDeny": "The data space's policies do not allow this request.",
  "pep.badSignature": "The token's signature cannot be verified.",
  "pep.untrustedChain": "The token's certificate chain is not trusted.",
  "pep.permit": "Allowed.",
  "pep.admin": "Allowed: an administrator.",
  "pep.dryRun.row": "{type}: {decisions}.",
  "pep.dryRun.permitted": "{methods} permitted",
  "pep.dryRun.separator": "; ",
  "pep.dryRun.denied": "{methods} denied ({why})",
  "pep.dryRun.registryDeny": "the authorization registry denies it",
  "pep.dryRun.registryUnreachable":
    "the authorization registry or the policy administration point cannot be reached",
  "pep.dryRun.policyDeny": "no ODRL policy of the workspace permits it",
  "pep.dryRun.noRole": "the role has no name to ask the registry about",
  "pep.dryRun.unknownToken": "the workspace accepts no data-space consumer's token",

  "request.badUrl": "The request target is not a valid URL: its percent-encoding is broken.",
  "request.noRoute": "No route {method} {path}",
  "request.hostile": "The request cannot be accepted: {where}{at} {flaw}.",
  "request.hostile.nul": "contains a NUL character (\\u0000)",
  "request.hostile.surrogate": "contains a lone UTF-16 surrogate, which is not Unicode text",
  "request.hostile.deep": "is nested deeper than {depth} levels",
  "request.nothingAtPath": "Nothing can exist at this path: its parameter {name} {flaw}.",
  "request.where.query": "the query",
  "request.where.body": "the body",
  "request.invalidJson": "The body is not valid JSON: {reason}",
  "request.tooLarge": "The body is larger than the limit of {limit} bytes.",
  "request.unsupportedMediaType": "The content type {type} is not accepted here.",
  "request.tooMany": "Too many requests from here: try again in {seconds} s.",

  "auth.unauthenticated": "You must be authenticated: send Authorization: Bearer <token>.",
  "auth.unknownToken": "The access token is unknown or expired. Sign in again.",
  "auth.forbidden": "You are not allowed to {method} {path}.",
  "auth.metricsForAdministrators":
    "Only administrators read the metrics (GET /metrics); a scraper without an administrator's token uses METRICS_PORT.",

  // A context broker (or Mintaka) that failed, by its name.
  "broker.timeout": "The context broker {broker} did not answer in time.",
  "broker.unreachable": "The context broker {broker} could not be reached ({cause}).",
  // The same, explained as its connection check explains it (health/probe.ts): reason, and more.
  "broker.unreachableBecause": "The context broker {broker} could not be reached. {reason}",
  "broker.unreachableBecauseBoth": "The context broker {broker} could not be reached. {reason} {more}",
  "broker.unusable": "The context broker {broker} answered {answered} with {found} where {expected} was due.",
  "broker.found.empty": "an empty body",
  "broker.found.null": "null",
  "broker.found.notJson": "a body that is not JSON (an HTML page?)",
  "broker.found.otherJson": "JSON of another shape",
  "broker.expected.entity": "an entity",
  "broker.expected.entities": "a list of entities",
  "broker.expected.types": "its list of types",
  "broker.expected.attributes": "its list of attributes",
  "broker.expected.subscription": "a subscription",
  "broker.expected.subscriptions": "a list of subscriptions",
  "broker.expected.registration": "a context source registration",
  "broker.expected.registrations": "a list of context source registrations",
  "broker.expected.ids": "the list of the entities created",
  "broker.expected.batchResult": "the result of a batch operation",
  "broker.expected.updateResult": "the result of an attribute update",
  "broker.expected.nothing": "JSON or nothing",
  "broker.unwritable": "The data cannot be sent to the context broker: {cause}.",
  "broker.notFound": "The context broker {broker} does not have it: {reason}",
  "broker.refused": "The context broker {broker} refused: {reason}",
  "broker.failed": "The context broker {broker} failed: {reason}",

  // Field errors (the field's name comes before the sentence).
  "field.invalid": "is invalid",
  "field.required": "is required",
  "field.secretValueNotSet": "has no stored value to keep for {name}: type its value",
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
  // A field's own format (@orrery/model's formatMessages): what is expected, in the reader's language.
  "format.host": "must be a host name or an IP address, without scheme, port or path",
  "format.path": "must be a path starting with /, without spaces",
  "format.did": "must be a decentralised identifier such as did:web:verifier.example.org",
  "format.pem":
    "must be the key or certificate without its BEGIN/END lines: one line of base64, without line breaks",
  "format.singleLine": "must be a single line",
  "format.dataModelName": "must be 1 to 50 lowercase letters, digits or -",
  "format.ngsiName": "must be letters, digits, - or _",
  "format.accessSubject": "must be one word, without spaces (registries refuse spaces in an access subject)",
  "format.other": "does not have the expected form",
  "field.yearZero":
    "must be a date from year 0001 on (year 0000 does not exist in the calendar the database keeps)",
  "field.unknownReference": "refers to no existing {kind}",
  "field.unknownReferenceHere": "refers to no {kind} in this workspace",
  "field.outsideOf": "refers to a record ({kind}) that does not belong to the chosen {field}",
  "field.ofAnother": "refers to “{name}”, which belongs to “{owner}”, not to the chosen {field}",
  "field.ofNone": "refers to “{name}”, which belongs to no {field} yet: choose one in its own form first",
  "field.afterField": "must come after {field}",
  "field.otherWorkspace": "must be the workspace of the path, {workspace}",
  "field.reserved": '"{value}" is reserved by NGSI-LD: {because}',
  "field.givenTwice": '"{value}" is given twice',
  "field.defaultUrl": "default_url_error: the URL must not be the workspace's default data model URL alone",
  "field.urlOfName": "a type or a property named {name} already uses the URL {url}",
  "field.selfParent": "cannot be the property itself or one of its sub-properties",
  "field.sameType": "must be a property of the same type",
  "field.multiValued":
    "needs a context broker that keeps several values per attribute (Scorpio, Stellio or the embedded broker)",
  "field.notOfWorkspace": "must be a record ({kind}) of the workspace",
  "reserved.entity": "every entity has a member of that name",
  "reserved.attribute": "every attribute may have a member of that name",
  "reserved.system": "the broker sets it itself",
  "reserved.temporal": "every temporal value has a member of that name",
  "reserved.notification": "notifications carry a member of that name",

  "notFound.record": "{id} does not exist.",
  "notFound.workspace": "The workspace {id} does not exist.",
  "notFound.type": "The type {id} does not exist.",
  "notFound.property": "The property {id} does not exist.",
  "notFound.context": "The context {id} does not exist.",
  "notFound.temporalService": "The workspace has no temporal service {id}.",
  "notFound.attribute": "The entity {entity} has no attribute {attribute}.",
  "record.stale":
    "The record was changed by someone else since you loaded it. Reload it and apply your change again.",
  "record.inUse": "It cannot be deleted while these records refer to it: {names}.",
  "record.dependents": "The change of its {fields} would break these records that go with it: {names}.",
  "field.createOnly": "cannot be changed after creation",
  "entity.attributeObject": "must be an NGSI-LD attribute object ({type, value} or {type, object})",
  "entity.targetUrn": "must be the URN of the target entity",
  "entity.geometry": "must be a GeoJSON geometry {type, coordinates}",
  "entity.dateTime": "must be an ISO 8601 date-time",
  "entity.geoQuery":
    "A geo-query needs georel, geometry and coordinates together; coordinates as JSON, such as [[[2.2,48.8],[2.4,48.8],[2.4,48.9],[2.2,48.8]]].",
  "entity.noValue": "has no value",
  "entity.typeName": "is required: letters, digits, - and _ (at most 50)",
  "entity.idUri": "must be a URI such as urn:ngsi-ld:Building:001",
  "entity.attributesObject": "must be an object of attributes",
  "entity.unchangeable": "cannot be changed by an update",
  "entity.attributesExist": "The entity already has {names}: edit it instead.",
  "import.noRows": "has no data rows under the header",
  "workspace.incompleteService":
    "The identity manager or its grant of the workspace's service no longer exists.",
  "workspace.incomplete": "The workspace's service or context broker no longer exists.",
  "workspace.siop2Login":
    "This service uses SIOP 2: open the workspace with a verifiable-credential login first.",
  "idm.unreachable": "The identity manager {name} could not be reached: {cause}",
  "peer.crossOriginRedirect":
    "{name} ({kind}) redirected the request to {location}; Orrery does not send credentials to another origin.",
  "idm.refusedGrant": "The identity manager {name} refused the grant ({status}).",
  "grant.ofAnotherPeer":
    "The grant “{grant}” belongs to “{owner}”, not to “{peer}”: its secrets go to “{owner}” only. Choose a grant of “{peer}”.",
  "grant.peerNeedsSecrets":
    "The grant “{grant}” was given for its current {field}: to choose another, type its {fields} again in the same change (its secrets never go to a peer they were not given for).",
  "grant.bindForbidden":
    "The grant “{grant}” has no {field} yet: the first record that pairs it chooses where its secrets go, which needs permission to change the grant. Ask an administrator to choose it in the grant’s form.",
  "grant.ofNoPeer":
    "The grant “{grant}” is not tied to “{peer}” nor to any other yet, so its secrets go nowhere: an administrator must choose, in the grant’s form, the one it was made for.",
  "dataModel.outdated": "The data model is outdated. Please generate a new version before auto-discovering.",
  "sdm.notYaml": "The model is not valid YAML: {reason}",
  "sdm.noProperties":
    "The model has no properties: a Smart Data Models model.yaml starts with the type name, holding `properties`.",
  "fetch.notAbsolute": "{url} is not an absolute URL.",
  "fetch.scheme": "Only http and https URLs can be fetched.",
  "fetch.unresolved": "The host {host} could not be resolved.",
  "fetch.private": "{host} is on a private network; set PROXY_ALLOW_PRIVATE_NETWORKS=true to allow it.",
  "fetch.unreachable": "{host} could not be reached: {cause}",
  "fetch.status": "{host} answered {status} for {path}.",
  "fetch.tooLarge": "The model is larger than {max} bytes.",
  "sheets.notConfigured": "Google Sheets is not configured on this server (GOOGLE_SERVICE_ACCOUNT_KEY_FILE).",
  "sheets.badKey": "The Google service account key cannot be read: {reason}",
  "sheets.noToken": "Google did not issue an access token.",
  "sheets.unreachable": "Google could not be reached: {cause}",
  "sheets.refused": "Google Sheets refused: {reason}",

  "row.notJson": "column {column}: {value} is not valid JSON",
  "row.notUri": "column {column}: {value} is not an entity id (a URI)",
  "row.notGeometry": "column {column}: the value is not a GeoJSON geometry object",
  "row.geometryType": "column {column}: the geometry type {type} is not one of {types}",
  "row.geometryCoordinates": "column {column}: the coordinates are not a valid {type}",
  "row.notNumber": "column {column}: {value} is not a number",
  "row.notBoolean": "column {column}: {value} is not a boolean (true/false, 1/0, yes/no)",
  "row.notObject": "column {column}: the value is not a JSON object",
  "row.notArray": "column {column}: the value is not a JSON array",
  "row.noType": "the type is missing",
  "row.otherType": "the type {type} is not {expected}",
  "row.idNotUri": "the id {id} is not a URI",
  "row.observedAt": "the observedAt {value} is not an ISO 8601 date-time",
  "row.refused": "the broker refused the entity",
  "row.noTime": "the time is missing",
  "row.noValue": "the value is missing",
  "row.duplicate": "the id is already on row {first}",

  "users.noIdentityManager":
    "This workspace has no identity manager with a grant: choose them on the workspace's page to manage its users.",
  "users.notPasswordGrant":
    "The workspace's identity manager grant {grant} is not a password grant: the users are managed with a password grant of an account allowed to manage the application's roles.",
  "users.unreachable": "The identity manager {name} could not be reached: {cause}",
  "users.signInRefused":
    "The identity manager {name} refused the sign-in of the grant's account {account} ({status}): {reason}",
  "users.notAdministrator":
    "The identity manager {name} lets only administrators list its users: make the grant's account {account} an administrator.",
  "users.manageRoles":
    "The grant's account {account} may not manage the roles of the application {application} in {name}: give it the application's \"Manage roles\" permission.",
  "users.refused": "The identity manager {name} refused the request ({status}): {reason}",
  "users.roleNotInContracts":
    "No contract detail of this workspace has the role scope name {role}: a role is given through a contract detail that names it, so add one first.",
  "users.forbidden":
    "Assigning or removing the role {role} needs permission to update a contract detail that names it.",
  "users.unknownUser": "The identity manager has no user {id}.",
  "users.notHeld": "The user {id} does not hold the role {role}.",
  "users.consoleRole":
    "The role {role} is one of the console's own (config/permissions.yaml): giving it would give the console's permissions, so a contract role may not be it.",
  "users.consoleApplication":
    "The workspace's identity manager {name} is used with the console's own application {application}: every role there gives console permissions at sign-in, so none is given from a workspace. Give the workspace a grant for an application of its own.",
  "users.organizationNotOwned":
    "The account {account} may not read the organisation {organization} of {name}, which holds roles in the application: Keyrock lets only an organisation's owners read it. Make the account an owner of the organisation.",

  "wot.capacity.list": 'must be a JSON list of values for a list of values, such as ["low", "high"]',
  "wot.capacity.range":
    "must be a JSON [minimum, maximum] for a range, with minimum ≤ maximum, such as [0, 100]",
  "wot.propertyOfType": "must be a property of the thing description's type",
  "wot.enumNumbers": "must be a JSON list of numbers, such as [1, 2, 5]",
  "wot.enumStrings": 'must be a JSON list of texts, such as ["low", "high"]',
  "wot.enumOutside": "must hold only numbers between the minimum and the maximum",
  "wot.notNotifying": "must be a data service with a notification action (its name contains :Notification)",
  "wot.notInService": "must be a WoT property whose property the data service exposes",
  "wot.outsideCapacity": "must be within the capacity {capacity} ({type})",
  "wot.inputOutsideCapacity":
    'must let some value fit the capacity {capacity} ({type}) of the WoT property "{name}" that the input writes',
  "wot.capacityOfProperty":
    'must be a property whose values the capacity {capacity} ({type}) can describe: "{name}" holds {valueType} values',
  "wot.controlType": 'must be a {valueType} value, as the attribute of the WoT property "{name}" holds',
  "wot.inputOfType": 'must be {valueType}, the type of the attribute "{attribute}" that the input writes',
  "wot.attributeRenamed":
    "{name} cannot be renamed while WoT properties read it ({names}): {count} entities of its type carry the attribute {name}, and the thing description would find no value on them.",
  "wot.entityNotFound": "The broker has no entity {id} of the type {type}.",
  "wot.entityMissing":
    "Name the {type} entity to read or act on: add ?entityId= and its id (urn:ngsi-ld:{type}:...) to this address, or consume the thing description of that entity (/wot-thing-descriptions/{td}?entityId=...), whose forms all name it.",
  "wot.noValue": "The entity {id} has no value for {name}.",
  "live.unknownChannel": "No live channel of this API listens at this address.",
  "live.brokerCannotNotify":
    "The workspace's broker cannot deliver notifications to this API at {address} (set LIVE_NOTIFY_URL to an address the broker reaches): screens refresh by polling.",
  "live.channelEnded":
    "The broker subscription that fed this live channel could not be kept (the broker refused its renewal, or the API is stopping); subscribe again.",
  "live.unknownType": "The data model of this workspace has no type {type}: there is nothing to listen to.",
  "live.tooManyStreams":
    "You already hold {max} live streams, the most one user may: close one (a page or a long poll left open) before opening another.",
  "live.tooManyChannels":
    "You already listen to {max} different live channels, the most one user may: leave one before listening to another.",
  "registry.unreachable": "The authorization registry {name} could not be reached ({step}): {cause}",
  "registry.refused": "The authorization registry {name} refused the {step} request ({status}): {reason}",
  "registry.policyForbidden":
    "The authorization registry {name} lets only its own party {owner} (or its administrator) write policies, and the grant signs in as {party}: choose a grant of {owner}, with its key and certificate chain.",
  "registry.noPolicy":
    "The authorization registry {name} knows no policy for the access subject {subject} (404).",
  "registry.previousStepsOutside":
    "belongs inside delegationRequest, as iSHARE and Keyrock take it (next to its target and policySets): move it there",
  "registryGrant.badKey": "must be an unencrypted PKCS#8 private key: the base64 between the PEM lines",
  "registryGrant.badCertificate": "must be an X.509 certificate: the base64 between the PEM lines",
  "registryGrant.keyMismatch":
    "does not belong to the first certificate (the leaf): choose the key of that certificate",
  "roles.noRegistry":
    "This workspace has no authorization registry and grant: turn on offers on the workspace's page and choose them to synchronise roles.",
  "roles.noAccesses": "The role {role} has no data service access: give it one before synchronising it.",
  "roles.notProven":
    "The authorization registry {name} took the policy of {subject}, but its delegation evidence does not answer {effect} for every data action: the role is not synchronised.",
  "roles.changedDuringSynchronization":
    "The role changed while it was being synchronised (an access, its data service, its dates or its roleName): it is not synchronised; synchronise it again.",
  "roleSync.writing": "Writing the policy of '{subject}' to the authorization registry {name}…",
  "roleSync.asking": "Asking {name} for the delegation evidence of '{subject}'…",
  "roleSync.answered": "✔ {action} on {type}: {effect}",
  "roleSync.wrongAnswer": "❌ {action} on {type}: the registry answered {answered}, not {expected}",
  "roleSync.noAnswer": "❌ {action} on {type}: the registry's evidence has no answer for it",
  "roleSync.askFailed": "❌ The delegation request failed: {reason}",
  "contracts.notSiop2":
    "Contracts are synchronised with the trusted issuers list of a service in SIOP-2 mode: the workspace's service is not.",
  "til.unreachable": "The trusted issuers list {name} could not be reached: {cause}",
  "til.refused": "The trusted issuers list {name} refused the issuer ({status}): {reason}",
  "til.noIssuer": "The trusted issuers list {name} has no issuer {did}.",
  "til.invalidIssuer": "The trusted issuers list {name} refused the issuer: {reason}",
  "til.issuerExists": "The trusted issuers list {name} already has the issuer {did}: edit it instead.",
  "til.otherDid": "must be the issuer's DID, {did} (a DID cannot change)",
  "ccs.noConfiguration":
    "The credentials configuration service {name} has no configuration for the service {id} yet.",
  "ccs.invalid": "The credentials configuration service {name} refused the configuration: {reason}",
  "ccs.conflict": "The credentials configuration service {name} already has this service: {reason}",
  "ccs.notKept":
    "The credentials configuration service {name} accepted the configuration of {id} but does not return it.",
  "ccs.defaultScope": "must be one of the scopes",
  "fdscSync.skipped": "{action} on {type} has no ODRL action the PAP maps: left out.",
  "fdscSync.noOdrlAction":
    "None of the data actions of the role {role} has an ODRL action the PAP maps (GET, POST, PUT, PATCH, DELETE).",
  "fdscSync.removed": "Removed the policy {id} from {name}.",
  "fdscSync.writing": "Writing the policy of {type} ({actions}) to the policy administration point {name}…",
  "fdscSync.readBack": "✔ {type}: the PAP returns the policy {id} as written",
  "fdscSync.notReadBack": "❌ {type}: the PAP returns the policy {id} otherwise than written",
  "fdscSync.absent": "✔ {type}: the PAP has no policy {id} any more",
  "fdscSync.stillThere": "❌ {type}: the PAP still has the policy {id}",
  "fdscSync.notProven":
    "The policy administration point {name} does not return the policies of {role} as they were written: the role is not synchronised.",
  "pap.unreachable": "The policy administration point {name} could not be reached: {cause}",
  "pap.refused": "The policy administration point {name} answered {status}: {reason}",
  "pap.invalidPolicy": "The policy administration point {name} refused the policy: {reason}",
  "pap.locked": "The policy administration point {name} does not let this policy be changed: {reason}",
  "pap.notKept": "The policy administration point {name} accepted the policy but does not return it.",
  "pap.noPolicy": "The policy administration point {name} has no policy {id}.",
  "pap.dotId": "A policy id cannot be “{id}”: in a path, “.” and “..” name a folder, not a policy.",
  "pap.noValidation":
    "The policy administration point {name} has no validation (/validate): turn it on in its record once its OPA is set up.",
  "ccs.unreachable": "The credentials configuration service {name} could not be reached: {cause}",
  "ccs.refused": "The credentials configuration service {name} answered {status}: {reason}",
  "fdsc.noService": "The service {id} does not exist.",
  "fdsc.dotSegment":
    "“{value}” cannot be sent to {name} as an id: in a path, “.” and “..” name a folder, not a record.",
  "fdsc.notFdsc":
    "The service {name} is not in FIWARE Data Space Connector mode: choose that authorization mode and its components on the service's page.",
  "contractDetail.syncNoRoleScopeName":
    "The contract detail has no role scope name: it names the role in the identity manager.",
  "contractDetail.syncNoScope":
    "The contract and the contract detail both need a scope type and a scope entity to be synchronised.",
  "contractDetail.syncNoScopeName":
    "The scope type {type} has no scope name: the permissions' paths are made of scope names.",
  "contractDetail.syncNoEntityName":
    "The scope entity {id} has no name in the broker: the permissions are named after it.",
  "contractDetail.syncFailed": "A step of the synchronisation failed: the lines say which.",
  "sync.token": "Requesting an access token to the Keyrock API…",
  "sync.roles": "Requesting the roles for the '{application}' application…",
  "sync.rolesFailed": "❌ The roles could not be read: {reason}",
  "sync.lookingFor": "Looking for the role with the name '{name}'…",
  "sync.roleFound": "Role with the name '{name}' found ('{id}'), skipping…",
  "sync.creatingRole": "Role with the name '{name}' not found, creating this role…",
  "sync.createRoleFailed": "❌ The role '{name}' could not be created: {reason}",
  "sync.permissionsOf": "Requesting the permissions assigned to the '{id}' role…",
  "sync.permissionsFailed": "❌ The permissions of the role '{id}' could not be read: {reason}",
  "sync.permissionsFound": "{count} permission(s) found, removing…",
  "sync.noPermission": "No permission found, skipping…",
  "sync.removing": "Removing '{id}' permission…",
  "sync.removeFailed": "❌ The permission '{id}' could not be removed: {reason}",
  "sync.typeWithoutScopeName":
    "❌ The type {type} of a data service of the role has no scope name: no permission for it.",
  "sync.creatingPermission": "Creating a permission with the name '{name}'…",
  "sync.createPermissionFailed": "❌ The permission '{name}' could not be created: {reason}",
  "sync.assigning": "Assigning the '{permission}' permission with the name '{name}' to the '{role}' role…",
  "sync.assignFailed":
    "❌ The permission '{permission}' could not be assigned to the role '{role}': {reason}",
  "siop2.notSiop2":
    "The workspace's service is not in SIOP-2 mode: there is no verifiable-credential login to it.",
  "siop2.waiting": "The verifier has not sent the code of this login yet: ask again in a second.",
  "siop2.unreachable": "The VC verifier {name} could not be reached: {cause}",
  "siop2.refused": "The VC verifier {name} refused the code ({status}).",
  "siop2.noToken": "The VC verifier {name} accepted the code but gave no access token.",
  "siop2.unknownState":
    "This SIOP-2 login was not started here, has expired or is already finished: start it again.",
  "siop2.alreadyCalledBack": "The verifier has already sent the code of this login: it is kept as it was.",
  "contract.noScopeName": "must be a type with a scope name ({type} has none)",
  "contract.scopeEntity": "must be an entity of the type {type} in the workspace's broker ({id} is not)",
  "contractDetail.contractWithoutScope": "needs a contract that has a scope type and a scope entity",
  "contractDetail.scopeTypeUnrelated":
    "must be a type with a relationship to the contract's scope type ({type} has none)",
  "contractDetail.scopeEntity":
    "must be an entity of the type {type} that refers to the contract's scope entity {scope} ({id} does not)",
  "contractDetail.consoleRole":
    "is a role of the console ({role}): a contract role may not give the console's permissions",
  "contractDetail.consoleApplication":
    "cannot name a role here: the workspace's identity manager grant uses the console's own application {application}, whose every role gives console permissions",

  "link.notFound": "There is no link {id} in this workspace.",
  "link.exists": "The data service already has this link: {id}.",
  "conflict.dataModelName": 'A workspace already uses the data model name "{value}".',
  "conflict.typeName": 'The workspace already has a type named "{value}".',
  "conflict.propertyName": 'The type already has a property named "{value}" at this place.',
  "conflict.wotPropertyName": 'The thing description already has a WoT property named "{value}".',
  "conflict.wotActionName": 'The thing description already has an action named "{value}".',
  "conflict.wotEventName": 'The thing description already has an event named "{value}".',
  "conflict.routingName": 'The thing description already has a routing named "{value}".',
  "conflict.wotInputName": 'The action already has an input property named "{value}".',
  "conflict.roleName": 'The workspace already has a role with the role name "{value}".',
  "conflict.roleTitle": 'The workspace already has a role named "{value}".',
  "conflict.dataServiceName": 'The workspace already has a data service named "{value}".',
  "conflict.thingDescriptionName": 'The workspace already has a thing description named "{value}".',
  "conflict.operationSequence": "The routing already has an operation with the sequence number {value}.",
  "conflict.brokerClientName": 'A broker client named "{value}" already exists.',
  "conflict.unique": "The record clashes with another one.",

  // Broker clients (apps/api/src/broker-clients).
  "brokerClients.revoked":
    "The broker client {name} is revoked: it has no key and gets none again. Create another client.",

  // Health of the registered components (Status page, "Check connection").
  "health.refused": "The connection was refused: nothing listens at {address}.",
  "health.timedOut": "No answer within {seconds} s.",
  "health.unknownHost": "The host name {host} is not known (DNS).",
  "health.connectionClosed": "The connection was closed before an answer ({cause}).",
  "health.unreachable": "It could not be reached ({cause}).",
  "health.crossOriginRedirect":
    "It redirected to {location}; Orrery does not send credentials to another origin.",
  "health.tooManyRedirects": "It redirected more than 3 times within its own address.",
  "health.tls": "The TLS connection failed.",
  "health.notTls": "It does not speak TLS at {address}: is its scheme http rather than https?",
  "health.certificate.expired": "Its certificate expired on {date}.",
  "health.certificate.notYetValid": "Its certificate is valid only from {date}.",
  "health.certificate.selfSigned": "Its certificate is self-signed.",
  "health.certificate.wrongHost": "Its certificate is for {names}, not for {host}.",
  "health.certificate.untrusted":
    "Its certificate is issued by {issuer}, an authority this server does not trust.",
  "health.certificate.other": "Its certificate was refused ({cause}).",
  "health.htmlPage": "It answered {status} at {path} with an HTML page ({reason}) where JSON was due.",
  "health.unexpectedStatus": "It answered {status} at {path}: {reason}",
  "health.notJson": "It answered {status} at {path} with a body that is not JSON.",
  "health.asksAuthorization": "It answers, and asks for authorization at {path} ({status}).",
  "health.tokenObtained": "The credentials obtain a token.",
  "health.tokenRefused": "The credentials no longer obtain a token: {status}, {reason}",
  "health.tokenMissing": "The answer to the credentials holds no access token.",
  "health.keyCannotSign": "The grant's private key cannot sign a client assertion.",
  "health.grantCheckTooSoon":
    "The credentials of {name} were tried less than {limit} s ago: to spare its account, they are tried again in {seconds} s at the earliest. Its last result is shown.",
  "health.byWorkspaceBroker":
    "An NGSI-LD temporal service is the temporal API of each workspace's own context broker: check the broker.",

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
