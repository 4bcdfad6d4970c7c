/**
 * NGSI-LD problem details (ETSI GS CIM 009 clause 5.5.2, error types of table 6.3.2-1). Thrown
 * anywhere inside the broker and answered by the plugin's error handler.
 */
export type ErrorType =
  | "InvalidRequest"
  | "BadRequestData"
  | "AlreadyExists"
  | "OperationNotSupported"
  | "ResourceNotFound"
  | "InternalError"
  | "TooComplexQuery"
  | "TooManyResults"
  | "LdContextNotAvailable"
  | "NonexistentTenant"
  | "NotAcceptable"
  | "UnsupportedMediaType";

const statusOf: Record<ErrorType, number> = {
  InvalidRequest: 400,
  BadRequestData: 400,
  AlreadyExists: 409,
  OperationNotSupported: 422,
  ResourceNotFound: 404,
  InternalError: 500,
  TooComplexQuery: 403,
  TooManyResults: 403,
  LdContextNotAvailable: 503,
  NonexistentTenant: 404,
  // Not ETSI error types, but HTTP says 406/415 and the spec lists them as plain HTTP errors.
  NotAcceptable: 406,
  UnsupportedMediaType: 415,
};

const titles: Record<ErrorType, string> = {
  InvalidRequest:
    "The request associated to the operation is syntactically invalid or includes wrong content",
  BadRequestData: "The request includes input data which does not meet the requirements of the operation",
  AlreadyExists: "The referred element already exists",
  OperationNotSupported: "The operation is not supported",
  ResourceNotFound: "The referred resource has not been found",
  InternalError: "There has been an error during the operation execution",
  TooComplexQuery: "The query is too complex and cannot be resolved",
  TooManyResults: "The query result is too large and cannot be delivered",
  LdContextNotAvailable: "A remote JSON-LD @context referenced in a request cannot be retrieved",
  NonexistentTenant: "The addressed tenant does not exist",
  NotAcceptable: "None of the accepted media types can be produced",
  UnsupportedMediaType: "The request body's media type is not supported",
};

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
}

export class NgsiLdError extends Error {
  readonly status: number;
  constructor(
    readonly errorType: ErrorType,
    readonly detail: string,
  ) {
    super(`${errorType}: ${detail}`);
    this.status = statusOf[errorType];
  }

  toProblem(): ProblemDetails {
    return {
      type: problemType(this.errorType),
      title: titles[this.errorType],
      status: this.status,
      detail: this.detail,
    };
  }
}

export function problemType(errorType: ErrorType): string {
  return `https://uri.etsi.org/ngsi-ld/errors/${errorType}`;
}

export const badRequest = (detail: string) => new NgsiLdError("BadRequestData", detail);
export const invalidRequest = (detail: string) => new NgsiLdError("InvalidRequest", detail);
export const notFound = (detail: string) => new NgsiLdError("ResourceNotFound", detail);
