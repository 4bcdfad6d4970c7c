import type { MessageCode } from "./en.ts";

/** The API's sentences in French (typography: a no-break space, U+00A0, before a colon or a semicolon). */
export const fr: Record<MessageCode, string> = {
  "title.400": "Requête incorrecte",
  "title.401": "Non authentifié",
  "title.403": "Interdit",
  "title.404": "Introuvable",
  "title.405": "Méthode non autorisée",
  "title.409": "Conflit",
  "title.412": "Précondition non remplie",
  "title.413": "Contenu trop volumineux",
  "title.415": "Type de contenu non pris en charge",
  "title.429": "Trop de requêtes",
  "title.500": "Erreur interne du serveur",
  "title.501": "Non implémenté",
  "title.502": "Passerelle incorrecte",
  "title.503": "Service indisponible",
  "title.504": "Délai de la passerelle dépassé",
  "title.invalid": "Les données envoyées ne sont pas valides",

  "server.failed": "Le serveur a échoué ; l’erreur figure dans son journal.",
  // Le point d’application des politiques du broker intégré (src/pep)
  "pep.defaultTenant": "le tenant par défaut",
  "pep.noToken":
    "Cette requête demande un justificatif : envoyez Authorization: Bearer <jeton> (un jeton Orrery, la clé d’un client du broker ou le jeton d’un consommateur de l’espace de données).",
  "pep.badCredential":
    "Le justificatif est illisible : envoyez un seul jeton, dans l’en-tête Authorization (Bearer <jeton>) ou dans X-Auth-Token.",
  "pep.unknownToken": "Le jeton est inconnu ou a expiré.",
  "pep.expired": "Le jeton a expiré.",
  "pep.forbidden":
    "Vous ne pouvez pas lire les données de {tenant} : aucun espace de travail que vous pouvez lire ne l’utilise.",
  "pep.readOnly": "Vous pouvez lire les données de {tenant}, pas les modifier.",
  "pep.noWorkspace":
    "Aucun espace de travail n’utilise {tenant} de ce broker : seul un administrateur y accède.",
  "pep.clientScope": "Ce client du broker ne peut pas accéder à {tenant}.",
  "pep.clientReadOnly": "Ce client du broker peut lire {tenant}, pas le modifier.",
  "pep.privateEndpoint":
    "{endpoint} est sur un réseau privé (ou son nom ne se résout pas) : seul un administrateur peut faire appeler cette adresse par le broker.",
  "pep.noRole": "Aucun de vos rôles n’autorise cette requête.",
  "pep.registryDeny": "Le registre d’autorisations refuse cette requête.",
  "pep.registryUnreachable":
    "Le registre d’autorisations (ou le gestionnaire d’identités, le vérificateur ou le point d’administration des politiques) qui décide ne répond pas : la requête est refusée.",
  "pep.policyDeny": "Les politiques de l’espace de données n’autorisent pas cette requête.",
  "pep.badSignature": "La signature du jeton ne peut pas être vérifiée.",
  "pep.untrustedChain": "La chaîne de certificats du jeton n’est pas de confiance.",
  "pep.permit": "Autorisé.",
  "pep.admin": "Autorisé : un administrateur.",
  "pep.dryRun.row": "{type} : {decisions}.",
  "pep.dryRun.permitted": "autorisé pour {methods}",
  "pep.dryRun.separator": " ; ",
  "pep.dryRun.denied": "refusé pour {methods} ({why})",
  "pep.dryRun.registryDeny": "le registre d’autorisations le refuse",
  "pep.dryRun.registryUnreachable":
    "le registre d’autorisations ou le point d’administration des politiques ne répond pas",
  "pep.dryRun.policyDeny": "aucune politique ODRL de l’espace de travail ne l’autorise",
  "pep.dryRun.noRole": "le rôle n’a pas de nom à demander au registre",
  "pep.dryRun.unknownToken":
    "l’espace de travail n’accepte aucun jeton de consommateur de l’espace de données",

  "request.badUrl": "L’adresse demandée n’est pas une URL valide : son encodage en pourcentage est erroné.",
  "request.noRoute": "Aucune route {method} {path}",
  "request.hostile": "La requête ne peut pas être acceptée : {where}{at} {flaw}.",
  "request.hostile.nul": "contient un caractère NUL (\\u0000)",
  "request.hostile.surrogate": "contient un demi-caractère UTF-16 isolé, qui n’est pas du texte Unicode",
  "request.hostile.deep": "est imbriqué sur plus de {depth} niveaux",
  "request.nothingAtPath": "Rien ne peut exister à ce chemin : son paramètre {name} {flaw}.",
  "request.where.query": "la requête",
  "request.where.body": "le corps",
  "request.invalidJson": "Le corps n’est pas du JSON valide : {reason}",
  "request.tooLarge": "Le corps dépasse la limite de {limit} octets.",
  "request.unsupportedMediaType": "Le type de contenu {type} n’est pas accepté ici.",
  "request.tooMany": "Trop de requêtes d’ici : réessayez dans {seconds} s.",

  "auth.unauthenticated": "Vous devez être authentifié : envoyez Authorization: Bearer <jeton>.",
  "auth.unknownToken": "Le jeton d’accès est inconnu ou expiré. Reconnectez-vous.",
  "auth.forbidden": "Vous n’êtes pas autorisé à faire {method} {path}.",
  "auth.metricsForAdministrators":
    "Seuls les administrateurs lisent les métriques (GET /metrics) ; un collecteur sans jeton d’administrateur utilise METRICS_PORT.",

  "broker.timeout": "Le broker de contexte {broker} n’a pas répondu à temps.",
  "broker.unreachable": "Le broker de contexte {broker} est injoignable ({cause}).",
  "broker.unreachableBecause": "Le broker de contexte {broker} est injoignable. {reason}",
  "broker.unreachableBecauseBoth": "Le broker de contexte {broker} est injoignable. {reason} {more}",
  "broker.unusable":
    "Le broker de contexte {broker} a répondu {answered} avec {found} là où {expected} était attendu.",
  "broker.found.empty": "un corps vide",
  "broker.found.null": "null",
  "broker.found.notJson": "un corps qui n’est pas du JSON (une page HTML ?)",
  "broker.found.otherJson": "du JSON d’une autre forme",
  "broker.expected.entity": "une entité",
  "broker.expected.entities": "une liste d’entités",
  "broker.expected.types": "sa liste de types",
  "broker.expected.attributes": "sa liste d’attributs",
  "broker.expected.subscription": "un abonnement",
  "broker.expected.subscriptions": "une liste d’abonnements",
  "broker.expected.registration": "un enregistrement de source de contexte",
  "broker.expected.registrations": "une liste d’enregistrements de sources de contexte",
  "broker.expected.ids": "la liste des entités créées",
  "broker.expected.batchResult": "le résultat d’une opération groupée",
  "broker.expected.updateResult": "le résultat d’une mise à jour d’attributs",
  "broker.expected.nothing": "du JSON ou rien",
  "broker.unwritable": "Les données ne peuvent pas être envoyées au broker de contexte : {cause}.",
  "broker.notFound": "Le broker de contexte {broker} ne l’a pas : {reason}",
  "broker.refused": "Le broker de contexte {broker} a refusé : {reason}",
  "broker.failed": "Le broker de contexte {broker} a échoué : {reason}",

  "field.invalid": "n’est pas valide",
  "field.required": "est obligatoire",
  "field.secretValueNotSet": "n’a pas de valeur enregistrée à garder pour {name} : saisissez sa valeur",
  "field.unknownFields": "contient des champs inconnus : {keys}",
  "field.type": "doit être {expected}",
  "field.type.string": "doit être du texte",
  "field.type.number": "doit être un nombre",
  "field.type.int": "doit être un nombre entier",
  "field.type.boolean": "doit être vrai ou faux",
  "field.type.array": "doit être une liste",
  "field.type.object": "doit être un objet",
  "field.oneOf": "doit être l’une des valeurs {values}",
  "field.tooShort": "doit contenir au moins {minimum} caractères",
  "field.tooLong": "doit contenir au plus {maximum} caractères",
  "field.notEmpty": "ne doit pas être vide",
  "field.minItems": "doit contenir au moins {minimum} éléments",
  "field.maxItems": "doit contenir au plus {maximum} éléments",
  "field.min": "doit être au moins {minimum}",
  "field.max": "doit être au plus {maximum}",
  "field.format": "doit être un {format} valide",
  "format.host": "doit être un nom d’hôte ou une adresse IP, sans schéma, port ni chemin",
  "format.path": "doit être un chemin commençant par /, sans espace",
  "format.did": "doit être un identifiant décentralisé, par exemple did:web:verifier.example.org",
  "format.pem":
    "doit être la clé ou le certificat sans ses lignes BEGIN/END : une ligne de base64, sans saut de ligne",
  "format.singleLine": "doit tenir sur une seule ligne",
  "format.dataModelName": "doit compter 1 à 50 lettres minuscules, chiffres ou -",
  "format.ngsiName": "ne doit contenir que des lettres, chiffres, - ou _",
  "format.accessSubject":
    "doit être un seul mot, sans espace (les registres refusent les espaces dans un sujet d’accès)",
  "format.other": "n’a pas la forme attendue",
  "field.yearZero":
    "doit être une date à partir de l’an 0001 (l’an 0000 n’existe pas dans le calendrier que garde la base de données)",
  "field.unknownReference": "désigne un enregistrement ({kind}) qui n’existe pas",
  "field.unknownReferenceHere":
    "désigne un enregistrement ({kind}) qui n’existe pas dans cet espace de travail",
  "field.outsideOf": "désigne un enregistrement ({kind}) qui n’appartient pas au champ {field} choisi",
  "field.ofAnother": "désigne « {name} », qui appartient à « {owner} » et non au champ {field} choisi",
  "field.ofNone":
    "désigne « {name} », qui n’appartient encore à aucun champ {field} : choisissez-en un d’abord dans son propre formulaire",
  "field.afterField": "doit venir après {field}",
  "field.otherWorkspace": "doit être l’espace de travail du chemin, {workspace}",
  "field.reserved": "« {value} » est réservé par NGSI-LD : {because}",
  "field.givenTwice": "« {value} » est donné deux fois",
  "field.defaultUrl":
    "default_url_error : l’URL ne doit pas être seulement l’URL du modèle de données par défaut de l’espace de travail",
  "field.urlOfName": "un type ou une propriété nommé {name} utilise déjà l’URL {url}",
  "field.selfParent": "ne peut être la propriété elle-même ni l’une de ses sous-propriétés",
  "field.sameType": "doit être une propriété du même type",
  "field.multiValued":
    "demande un courtier de contexte qui garde plusieurs valeurs par attribut (Scorpio, Stellio ou le courtier intégré)",
  "field.notOfWorkspace": "doit être un enregistrement ({kind}) de l’espace de travail",
  "reserved.entity": "chaque entité a un membre de ce nom",
  "reserved.attribute": "chaque attribut peut avoir un membre de ce nom",
  "reserved.system": "le broker le renseigne lui-même",
  "reserved.temporal": "chaque valeur temporelle a un membre de ce nom",
  "reserved.notification": "les notifications portent un membre de ce nom",

  "notFound.record": "{id} n’existe pas.",
  "notFound.workspace": "L’espace de travail {id} n’existe pas.",
  "notFound.type": "Le type {id} n’existe pas.",
  "notFound.property": "La propriété {id} n’existe pas.",
  "notFound.context": "Le contexte {id} n’existe pas.",
  "notFound.temporalService": "L’espace de travail n’a pas de service temporel {id}.",
  "notFound.attribute": "L’entité {entity} n’a pas d’attribut {attribute}.",
  "record.stale":
    "L’enregistrement a été modifié par quelqu’un d’autre depuis son chargement. Rechargez-le et refaites votre modification.",
  "record.inUse": "Il ne peut être supprimé tant que ces enregistrements y font référence : {names}.",
  "record.dependents":
    "Le changement de son champ {fields} casserait ces enregistrements qui vont avec : {names}.",
  "field.createOnly": "ne peut plus être changé après la création",
  "entity.attributeObject": "doit être un objet d’attribut NGSI-LD ({type, value} ou {type, object})",
  "entity.targetUrn": "doit être l’URN de l’entité cible",
  "entity.geometry": "doit être une géométrie GeoJSON {type, coordinates}",
  "entity.dateTime": "doit être une date et heure ISO 8601",
  "entity.geoQuery":
    "Une requête géographique demande georel, geometry et coordinates ensemble ; coordinates en JSON, par exemple [[[2.2,48.8],[2.4,48.8],[2.4,48.9],[2.2,48.8]]].",
  "entity.noValue": "n’a pas de valeur",
  "entity.typeName": "est requis : lettres, chiffres, - et _ (50 au plus)",
  "entity.idUri": "doit être une URI comme urn:ngsi-ld:Building:001",
  "entity.attributesObject": "doit être un objet d’attributs",
  "entity.unchangeable": "ne peut être changé par une mise à jour",
  "entity.attributesExist": "L’entité a déjà {names} : modifiez-la plutôt.",
  "import.noRows": "n’a aucune ligne de données sous l’en-tête",
  "workspace.incompleteService":
    "Le gestionnaire d’identité ou l’autorisation du service de l’espace de travail n’existe plus.",
  "workspace.incomplete": "Le service ou le courtier de contexte de l’espace de travail n’existe plus.",
  "workspace.siop2Login":
    "Ce service utilise SIOP 2 : ouvrez d’abord l’espace de travail avec une connexion par attestation vérifiable.",
  "idm.unreachable": "Le gestionnaire d’identité {name} est injoignable : {cause}",
  "peer.crossOriginRedirect":
    "{name} ({kind}) a redirigé la requête vers {location} ; Orrery n’envoie pas d’identifiants à une autre origine.",
  "idm.refusedGrant": "Le gestionnaire d’identité {name} a refusé l’autorisation ({status}).",
  "grant.ofAnotherPeer":
    "L’autorisation « {grant} » appartient à « {owner} », pas à « {peer} » : ses secrets ne vont qu’à « {owner} ». Choisissez une autorisation de « {peer} ».",
  "grant.peerNeedsSecrets":
    "L’autorisation « {grant} » a été donnée pour son champ {field} actuel : pour en choisir un autre, saisissez de nouveau {fields} dans la même modification (ses secrets ne vont jamais à un pair pour lequel ils n’ont pas été donnés).",
  "grant.bindForbidden":
    "L’autorisation « {grant} » n’a pas encore de champ {field} : le premier enregistrement qui l’utilise choisit où vont ses secrets, ce qui demande la permission de modifier l’autorisation. Demandez à un administrateur de le choisir dans le formulaire de l’autorisation.",
  "grant.ofNoPeer":
    "L’autorisation « {grant} » n’est encore liée ni à « {peer} » ni à aucun autre : ses secrets ne vont nulle part, et un administrateur doit choisir, dans le formulaire de l’autorisation, celui pour lequel elle a été faite.",
  "dataModel.outdated":
    "Le modèle de données n’est plus à jour. Générez-en une nouvelle version avant la découverte automatique.",
  "sdm.notYaml": "Le modèle n’est pas du YAML valide : {reason}",
  "sdm.noProperties":
    "Le modèle n’a pas de propriétés : un model.yaml de Smart Data Models commence par le nom du type, qui contient `properties`.",
  "fetch.notAbsolute": "{url} n’est pas une URL absolue.",
  "fetch.scheme": "Seules les URL http et https peuvent être lues.",
  "fetch.unresolved": "L’hôte {host} est introuvable.",
  "fetch.private":
    "{host} est sur un réseau privé ; réglez PROXY_ALLOW_PRIVATE_NETWORKS=true pour l’autoriser.",
  "fetch.unreachable": "{host} est injoignable : {cause}",
  "fetch.status": "{host} a répondu {status} pour {path}.",
  "fetch.tooLarge": "Le modèle dépasse {max} octets.",
  "sheets.notConfigured":
    "Google Sheets n’est pas configuré sur ce serveur (GOOGLE_SERVICE_ACCOUNT_KEY_FILE).",
  "sheets.badKey": "La clé du compte de service Google est illisible : {reason}",
  "sheets.noToken": "Google n’a pas délivré de jeton d’accès.",
  "sheets.unreachable": "Google est injoignable : {cause}",
  "sheets.refused": "Google Sheets a refusé : {reason}",

  "row.notJson": "colonne {column} : {value} n’est pas du JSON valide",
  "row.notUri": "colonne {column} : {value} n’est pas un identifiant d’entité (une URI)",
  "row.notGeometry": "colonne {column} : la valeur n’est pas un objet géométrique GeoJSON",
  "row.geometryType": "colonne {column} : le type de géométrie {type} n’est pas l’un de {types}",
  "row.geometryCoordinates": "colonne {column} : les coordonnées ne forment pas un {type} valide",
  "row.notNumber": "colonne {column} : {value} n’est pas un nombre",
  "row.notBoolean": "colonne {column} : {value} n’est pas un booléen (true/false, 1/0, yes/no)",
  "row.notObject": "colonne {column} : la valeur n’est pas un objet JSON",
  "row.notArray": "colonne {column} : la valeur n’est pas un tableau JSON",
  "row.noType": "le type manque",
  "row.otherType": "le type {type} n’est pas {expected}",
  "row.idNotUri": "l’identifiant {id} n’est pas une URI",
  "row.observedAt": "l’observedAt {value} n’est pas une date et heure ISO 8601",
  "row.refused": "le courtier a refusé l’entité",
  "row.noTime": "l’heure est manquante",
  "row.noValue": "la valeur est manquante",
  "row.duplicate": "l’identifiant figure déjà à la ligne {first}",

  "users.noIdentityManager":
    "Cet espace de travail n’a pas de gestionnaire d’identité avec un accès : choisissez-les sur la page de l’espace de travail pour en gérer les utilisateurs.",
  "users.notPasswordGrant":
    "L’accès {grant} au gestionnaire d’identité de l’espace de travail n’est pas un accès par mot de passe : les utilisateurs se gèrent avec l’accès par mot de passe d’un compte autorisé à gérer les rôles de l’application.",
  "users.unreachable": "Le gestionnaire d’identité {name} est injoignable : {cause}",
  "users.signInRefused":
    "Le gestionnaire d’identité {name} a refusé la connexion du compte {account} de l’accès ({status}) : {reason}",
  "users.notAdministrator":
    "Le gestionnaire d’identité {name} ne laisse que les administrateurs lister ses utilisateurs : faites du compte {account} de l’accès un administrateur.",
  "users.manageRoles":
    "Le compte {account} de l’accès ne peut pas gérer les rôles de l’application {application} dans {name} : donnez-lui la permission « Manage roles » de l’application.",
  "users.refused": "Le gestionnaire d’identité {name} a refusé la demande ({status}) : {reason}",
  "users.roleNotInContracts":
    "Aucun détail de contrat de cet espace de travail n’a le nom de portée de rôle {role} : un rôle est donné par un détail de contrat qui le nomme, ajoutez-en un d’abord.",
  "users.forbidden":
    "Attribuer ou retirer le rôle {role} demande la permission de modifier un détail de contrat qui le nomme.",
  "users.unknownUser": "Le gestionnaire d’identité n’a pas d’utilisateur {id}.",
  "users.notHeld": "L’utilisateur {id} n’a pas le rôle {role}.",
  "users.consoleRole":
    "Le rôle {role} est un rôle de la console (config/permissions.yaml) : l’attribuer donnerait les permissions de la console, un rôle de contrat ne peut donc pas l’être.",
  "users.consoleApplication":
    "Le gestionnaire d’identité {name} de l’espace de travail est utilisé avec l’application de la console elle-même, {application} : chacun de ses rôles donne des permissions de la console à la connexion, aucun n’est donc attribué depuis un espace de travail. Donnez à l’espace de travail un accès à une application qui lui soit propre.",
  "users.organizationNotOwned":
    "Le compte {account} ne peut pas lire l’organisation {organization} de {name}, qui a des rôles dans l’application : Keyrock ne la laisse lire qu’à ses propriétaires. Faites du compte un propriétaire de l’organisation.",

  "wot.capacity.list":
    'doit être une liste JSON de valeurs pour une liste de valeurs, par exemple ["bas", "haut"]',
  "wot.capacity.range":
    "doit être un intervalle JSON [minimum, maximum] avec minimum ≤ maximum, par exemple [0, 100]",
  "wot.propertyOfType": "doit être une propriété du type de la description d’objet",
  "wot.enumNumbers": "doit être une liste JSON de nombres, par exemple [1, 2, 5]",
  "wot.enumStrings": 'doit être une liste JSON de textes, par exemple ["bas", "haut"]',
  "wot.enumOutside": "ne doit contenir que des nombres entre le minimum et le maximum",
  "wot.notNotifying":
    "doit être un service de données avec une action de notification (son nom contient :Notification)",
  "wot.notInService": "doit être une propriété WoT dont la propriété est exposée par le service de données",
  "wot.outsideCapacity": "doit respecter la capacité {capacity} ({type})",
  "wot.inputOutsideCapacity":
    "doit admettre une valeur dans la capacité {capacity} ({type}) de la propriété WoT « {name} » que l’entrée écrit",
  "wot.capacityOfProperty":
    "doit être une propriété dont la capacité {capacity} ({type}) peut décrire les valeurs : « {name} » contient des valeurs de type {valueType}",
  "wot.controlType":
    "doit être une valeur de type {valueType}, comme l’attribut de la propriété WoT « {name} » en contient",
  "wot.inputOfType":
    "doit être de type {valueType}, le type de l’attribut « {attribute} » que l’entrée écrit",
  "wot.attributeRenamed":
    "{name} ne peut pas être renommée tant que des propriétés WoT la lisent ({names}) : {count} entités de son type portent l’attribut {name}, et la description d’objet n’y trouverait aucune valeur.",
  "wot.entityNotFound": "Le courtier n’a pas d’entité {id} du type {type}.",
  "wot.entityMissing":
    "Nommez l’entité {type} à lire ou sur laquelle agir : ajoutez ?entityId= et son identifiant (urn:ngsi-ld:{type}:...) à cette adresse, ou consommez la description d’objet de cette entité (/wot-thing-descriptions/{td}?entityId=...), dont tous les formulaires la nomment.",
  "wot.noValue": "L’entité {id} n’a pas de valeur pour {name}.",
  "live.unknownChannel": "Aucun canal en direct de cette API n’écoute à cette adresse.",
  "live.brokerCannotNotify":
    "Le courtier de l’espace de travail ne peut pas livrer de notifications à cette API à {address} (donnez à LIVE_NOTIFY_URL une adresse que le courtier atteint) : les écrans s’actualisent en redemandant.",
  "live.channelEnded":
    "L’abonnement du courtier qui alimentait ce canal en direct n’a pas pu être maintenu (le courtier a refusé son renouvellement, ou l’API s’arrête) ; abonnez-vous de nouveau.",
  "live.unknownType":
    "Le modèle de données de cet espace de travail n’a pas de type {type} : il n’y a rien à écouter.",
  "live.tooManyStreams":
    "Vous tenez déjà {max} flux en direct, le plus qu’un utilisateur puisse tenir : fermez-en un (une page ou une attente longue restée ouverte) avant d’en ouvrir un autre.",
  "live.tooManyChannels":
    "Vous écoutez déjà {max} canaux en direct différents, le plus qu’un utilisateur puisse écouter : quittez-en un avant d’en écouter un autre.",
  "registry.unreachable": "Le registre d’autorisations {name} est injoignable ({step}) : {cause}",
  "registry.refused": "Le registre d’autorisations {name} a refusé la demande {step} ({status}) : {reason}",
  "registry.policyForbidden":
    "Le registre d’autorisations {name} ne laisse écrire des politiques qu’à sa propre partie {owner} (ou à son administrateur), et l’accès se connecte en tant que {party} : choisissez un accès de {owner}, avec sa clé et sa chaîne de certificats.",
  "registry.noPolicy":
    "Le registre d’autorisations {name} ne connaît aucune politique pour le sujet d’accès {subject} (404).",
  "registry.previousStepsOutside":
    "va dans delegationRequest, comme iSHARE et Keyrock l’attendent (à côté de target et policySets) : déplacez-le",
  "registryGrant.badKey": "doit être une clé privée PKCS#8 non chiffrée : le base64 entre les lignes PEM",
  "registryGrant.badCertificate": "doit être un certificat X.509 : le base64 entre les lignes PEM",
  "registryGrant.keyMismatch":
    "n’est pas la clé du premier certificat (la feuille) : choisissez la clé de ce certificat",
  "roles.noRegistry":
    "Cet espace de travail n’a pas de registre d’autorisations avec un accès : activez les offres sur la page de l’espace de travail et choisissez-les pour synchroniser les rôles.",
  "roles.noAccesses":
    "Le rôle {role} n’a aucun accès à un service de données : donnez-lui en un avant de le synchroniser.",
  "roles.notProven":
    "Le registre d’autorisations {name} a pris la politique de {subject}, mais sa preuve de délégation ne répond pas {effect} pour chaque action de données : le rôle n’est pas synchronisé.",
  "roles.changedDuringSynchronization":
    "Le rôle a changé pendant sa synchronisation (un accès, son service de données, ses dates ou son roleName) : il n’est pas synchronisé ; synchronisez-le à nouveau.",
  "roleSync.writing": "Écriture de la politique de « {subject} » dans le registre d’autorisations {name}…",
  "roleSync.asking": "Demande à {name} de la preuve de délégation de « {subject} »…",
  "roleSync.answered": "✔ {action} sur {type} : {effect}",
  "roleSync.wrongAnswer": "❌ {action} sur {type} : le registre a répondu {answered}, et non {expected}",
  "roleSync.noAnswer": "❌ {action} sur {type} : la preuve du registre n’y répond pas",
  "roleSync.askFailed": "❌ La demande de délégation a échoué : {reason}",
  "contracts.notSiop2":
    "Les contrats se synchronisent avec la liste des émetteurs de confiance d’un service en mode SIOP-2 : le service de l’espace de travail ne l’est pas.",
  "til.unreachable": "La liste des émetteurs de confiance {name} est injoignable : {cause}",
  "til.refused": "La liste des émetteurs de confiance {name} a refusé l’émetteur ({status}) : {reason}",
  "til.noIssuer": "La liste des émetteurs de confiance {name} n’a pas d’émetteur {did}.",
  "til.invalidIssuer": "La liste des émetteurs de confiance {name} a refusé l’émetteur : {reason}",
  "til.issuerExists":
    "La liste des émetteurs de confiance {name} a déjà l’émetteur {did} : modifiez-le plutôt.",
  "til.otherDid": "doit être le DID de l’émetteur, {did} (un DID ne change pas)",
  "ccs.noConfiguration":
    "Le service de configuration des attestations {name} n’a pas encore de configuration pour le service {id}.",
  "ccs.invalid": "Le service de configuration des attestations {name} a refusé la configuration : {reason}",
  "ccs.conflict": "Le service de configuration des attestations {name} a déjà ce service : {reason}",
  "ccs.notKept":
    "Le service de configuration des attestations {name} a accepté la configuration de {id} mais ne la rend pas.",
  "ccs.defaultScope": "doit être l’une des portées",
  "fdscSync.skipped":
    "{action} sur {type} n’a pas d’action ODRL que le PAP sache traduire : laissée de côté.",
  "fdscSync.noOdrlAction":
    "Aucune action de données du rôle {role} n’a d’action ODRL que le PAP sache traduire (GET, POST, PUT, PATCH, DELETE).",
  "fdscSync.removed": "Politique {id} retirée de {name}.",
  "fdscSync.writing":
    "Écriture de la politique de {type} ({actions}) dans le point d’administration des politiques {name}…",
  "fdscSync.readBack": "✔ {type} : le PAP rend la politique {id} telle qu’écrite",
  "fdscSync.notReadBack": "❌ {type} : le PAP rend la politique {id} autrement qu’écrite",
  "fdscSync.absent": "✔ {type} : le PAP n’a plus de politique {id}",
  "fdscSync.stillThere": "❌ {type} : le PAP a encore la politique {id}",
  "fdscSync.notProven":
    "Le point d’administration des politiques {name} ne rend pas les politiques de {role} telles qu’écrites : le rôle n’est pas synchronisé.",
  "pap.unreachable": "Le point d’administration des politiques {name} est injoignable : {cause}",
  "pap.refused": "Le point d’administration des politiques {name} a répondu {status} : {reason}",
  "pap.invalidPolicy": "Le point d’administration des politiques {name} a refusé la politique : {reason}",
  "pap.locked":
    "Le point d’administration des politiques {name} ne laisse pas modifier cette politique : {reason}",
  "pap.notKept":
    "Le point d’administration des politiques {name} a accepté la politique mais ne la rend pas.",
  "pap.noPolicy": "Le point d’administration des politiques {name} n’a pas de politique {id}.",
  "pap.dotId":
    "Un identifiant de politique ne peut pas être « {id} » : dans un chemin, « . » et « .. » désignent un dossier, pas une politique.",
  "pap.noValidation":
    "Le point d’administration des politiques {name} n’a pas de validation (/validate) : activez-la dans sa fiche une fois son OPA configuré.",
  "ccs.unreachable": "Le service de configuration des attestations {name} est injoignable : {cause}",
  "ccs.refused": "Le service de configuration des attestations {name} a répondu {status} : {reason}",
  "fdsc.noService": "Le service {id} n’existe pas.",
  "fdsc.dotSegment":
    "« {value} » ne peut pas être envoyé à {name} comme identifiant : dans un chemin, « . » et « .. » désignent un dossier, pas un enregistrement.",
  "fdsc.notFdsc":
    "Le service {name} n’est pas en mode FIWARE Data Space Connector : choisissez ce mode d’autorisation et ses composants sur la page du service.",
  "contractDetail.syncNoRoleScopeName":
    "Le détail de contrat n’a pas de nom de portée de rôle : c’est le nom du rôle dans le gestionnaire d’identité.",
  "contractDetail.syncNoScope":
    "Le contrat et le détail de contrat doivent tous deux avoir un type et une entité de portée pour être synchronisés.",
  "contractDetail.syncNoScopeName":
    "Le type de portée {type} n’a pas de nom de portée : les chemins des permissions sont faits de noms de portée.",
  "contractDetail.syncNoEntityName":
    "L’entité de portée {id} n’a pas de nom dans le courtier : les permissions portent son nom.",
  "contractDetail.syncFailed": "Une étape de la synchronisation a échoué : les lignes disent laquelle.",
  "sync.token": "Demande d’un jeton d’accès à l’API de Keyrock…",
  "sync.roles": "Demande des rôles de l’application « {application} »…",
  "sync.rolesFailed": "❌ Les rôles n’ont pas pu être lus : {reason}",
  "sync.lookingFor": "Recherche du rôle nommé « {name} »…",
  "sync.roleFound": "Rôle nommé « {name} » trouvé (« {id} »), étape suivante…",
  "sync.creatingRole": "Rôle nommé « {name} » introuvable, création de ce rôle…",
  "sync.createRoleFailed": "❌ Le rôle « {name} » n’a pas pu être créé : {reason}",
  "sync.permissionsOf": "Demande des permissions attribuées au rôle « {id} »…",
  "sync.permissionsFailed": "❌ Les permissions du rôle « {id} » n’ont pas pu être lues : {reason}",
  "sync.permissionsFound": "{count} permission(s) trouvée(s), suppression…",
  "sync.noPermission": "Aucune permission trouvée, étape suivante…",
  "sync.removing": "Suppression de la permission « {id} »…",
  "sync.removeFailed": "❌ La permission « {id} » n’a pas pu être supprimée : {reason}",
  "sync.typeWithoutScopeName":
    "❌ Le type {type} d’un service de données du rôle n’a pas de nom de portée : aucune permission pour lui.",
  "sync.creatingPermission": "Création d’une permission nommée « {name} »…",
  "sync.createPermissionFailed": "❌ La permission « {name} » n’a pas pu être créée : {reason}",
  "sync.assigning": "Attribution de la permission « {permission} » nommée « {name} » au rôle « {role} »…",
  "sync.assignFailed":
    "❌ La permission « {permission} » n’a pas pu être attribuée au rôle « {role} » : {reason}",
  "siop2.notSiop2":
    "Le service de l’espace de travail n’est pas en mode SIOP-2 : il n’a pas de connexion par attestation vérifiable.",
  "siop2.waiting":
    "Le vérificateur n’a pas encore envoyé le code de cette connexion : redemandez dans une seconde.",
  "siop2.unreachable": "Le vérificateur d’attestations {name} est injoignable : {cause}",
  "siop2.refused": "Le vérificateur d’attestations {name} a refusé le code ({status}).",
  "siop2.noToken":
    "Le vérificateur d’attestations {name} a accepté le code mais n’a pas donné de jeton d’accès.",
  "siop2.unknownState":
    "Cette connexion SIOP-2 n’a pas été commencée ici, a expiré ou est déjà terminée : recommencez-la.",
  "siop2.alreadyCalledBack":
    "Le vérificateur a déjà envoyé le code de cette connexion : il est gardé tel quel.",
  "contract.noScopeName": "doit être un type avec un nom de portée ({type} n’en a pas)",
  "contract.scopeEntity":
    "doit être une entité du type {type} dans le courtier de l’espace de travail ({id} n’en est pas une)",
  "contractDetail.contractWithoutScope": "demande un contrat qui a un type et une entité de portée",
  "contractDetail.scopeTypeUnrelated":
    "doit être un type en relation avec le type de portée du contrat ({type} ne l’est pas)",
  "contractDetail.scopeEntity":
    "doit être une entité du type {type} qui désigne l’entité de portée du contrat {scope} ({id} ne la désigne pas)",
  "contractDetail.consoleRole":
    "est un rôle de la console ({role}) : un rôle de contrat ne peut pas donner les permissions de la console",
  "contractDetail.consoleApplication":
    "ne peut pas nommer de rôle ici : l’accès au gestionnaire d’identité de l’espace de travail utilise l’application de la console elle-même, {application}, dont chaque rôle donne des permissions de la console",

  "link.notFound": "Il n’y a pas de lien {id} dans cet espace de travail.",
  "link.exists": "Le service de données a déjà ce lien : {id}.",
  "conflict.dataModelName": "Un espace de travail utilise déjà le nom de modèle de données « {value} ».",
  "conflict.typeName": "L’espace de travail a déjà un type nommé « {value} ».",
  "conflict.propertyName": "Le type a déjà une propriété nommée « {value} » à cet endroit.",
  "conflict.wotPropertyName": "La description d’objet a déjà une propriété WoT nommée « {value} ».",
  "conflict.wotActionName": "La description d’objet a déjà une action nommée « {value} ».",
  "conflict.wotEventName": "La description d’objet a déjà un événement nommé « {value} ».",
  "conflict.routingName": "La description d’objet a déjà un routage nommé « {value} ».",
  "conflict.wotInputName": "L’action a déjà une propriété d’entrée nommée « {value} ».",
  "conflict.roleName": "L’espace de travail a déjà un rôle dont le nom de rôle est « {value} ».",
  "conflict.roleTitle": "L’espace de travail a déjà un rôle nommé « {value} ».",
  "conflict.dataServiceName": "L’espace de travail a déjà un service de données nommé « {value} ».",
  "conflict.thingDescriptionName": "L’espace de travail a déjà une description d’objet nommée « {value} ».",
  "conflict.operationSequence": "Le routage a déjà une opération de numéro d’ordre {value}.",
  "conflict.brokerClientName": "Un client du courtier nommé « {value} » existe déjà.",
  "conflict.unique": "L’enregistrement entre en conflit avec un autre.",

  // Clients du courtier (apps/api/src/broker-clients).
  "brokerClients.revoked":
    "Le client du courtier {name} est révoqué : il n’a plus de clé et n’en aura plus. Créez un autre client.",

  // Santé des composants enregistrés (page « État », « Tester la connexion »).
  "health.refused": "La connexion a été refusée : rien n’écoute à {address}.",
  "health.timedOut": "Aucune réponse en {seconds} s.",
  "health.unknownHost": "Le nom d’hôte {host} est inconnu (DNS).",
  "health.connectionClosed": "La connexion a été fermée avant une réponse ({cause}).",
  "health.unreachable": "Il n’a pas pu être joint ({cause}).",
  "health.crossOriginRedirect":
    "Il a redirigé vers {location} ; Orrery n’envoie pas d’identifiants à une autre origine.",
  "health.tooManyRedirects": "Il a redirigé plus de 3 fois à sa propre adresse.",
  "health.tls": "La connexion TLS a échoué.",
  "health.notTls": "Il ne parle pas TLS à {address} : son schéma serait-il http plutôt que https ?",
  "health.certificate.expired": "Son certificat a expiré le {date}.",
  "health.certificate.notYetValid": "Son certificat n’est valable qu’à partir du {date}.",
  "health.certificate.selfSigned": "Son certificat est auto-signé.",
  "health.certificate.wrongHost": "Son certificat est celui de {names}, et non de {host}.",
  "health.certificate.untrusted":
    "Son certificat est émis par {issuer}, une autorité à laquelle ce serveur ne fait pas confiance.",
  "health.certificate.other": "Son certificat a été refusé ({cause}).",
  "health.htmlPage":
    "Il a répondu {status} à {path} par une page HTML ({reason}) là où du JSON était attendu.",
  "health.unexpectedStatus": "Il a répondu {status} à {path} : {reason}",
  "health.notJson": "Il a répondu {status} à {path} par un contenu qui n’est pas du JSON.",
  "health.asksAuthorization": "Il répond, et demande une autorisation à {path} ({status}).",
  "health.tokenObtained": "Les identifiants obtiennent un jeton.",
  "health.tokenRefused": "Les identifiants n’obtiennent plus de jeton : {status}, {reason}",
  "health.tokenMissing": "La réponse aux identifiants ne contient aucun jeton d’accès.",
  "health.keyCannotSign": "La clé privée de l’autorisation ne peut pas signer d’assertion client.",
  "health.grantCheckTooSoon":
    "Les identifiants de {name} ont été essayés il y a moins de {limit} s : pour ménager son compte, ils le seront de nouveau dans {seconds} s au plus tôt. Son dernier résultat est affiché.",
  "health.byWorkspaceBroker":
    "Un service temporel NGSI-LD est l’API temporelle du courtier de contexte de chaque espace de travail : testez le courtier.",

  "idm.title": "Gestionnaire d’identités de développement d’Orrery",
  "idm.signIn": "Se connecter",
  "idm.note": "Gestionnaire d’identités de développement. Ne l’exposez pas sur Internet.",
  "idm.username": "Nom d’utilisateur",
  "idm.password": "Mot de passe",
  "idm.demoUsers": "Utilisateurs de démonstration",
  "idm.colon": " : ",
  "idm.user.admin": "tout",
  "idm.user.operator": "travail dans les espaces de travail, sans administration de la plateforme",
  "idm.user.viewer": "lecture seule",
  "idm.user.showroom": "mode vitrine",
  "idm.incomplete": "Ce lien de connexion est incomplet. Recommencez depuis la console.",
  "idm.wrongPassword": "Nom d’utilisateur ou mot de passe incorrect.",
};
