export {
  NgsiLdClient,
  NgsiLdError,
  parseContentRange,
  type BatchResult,
  type ClientOptions,
  type ContentRange,
  type Entity,
  type Expected,
  type Failure,
  type Found,
  type EntityQuery,
  type GeoQuery,
  type NewSubscription,
  type ProblemDetails,
  type Subscription,
  type TemporalParams,
  type TemporalQuery,
} from "./client.ts";
export { profileOf, profiles, type BrokerProfile } from "./profiles.ts";
export {
  entityToRow,
  isUri,
  parseNumber,
  rowToEntity,
  type ColumnSpec,
  type RowReason,
  type RowResult,
} from "./csv.ts";
