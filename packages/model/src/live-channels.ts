/**
 * The broker subscriptions the API makes for its live channels (the console's live lists, WoT
 * observations): not a user's, deleted when nobody watches any more. The API names and marks them
 * so (apps/api/src/live/channels.ts); the console shows them as what they are.
 */

/** The marker of a live channel's subscription: its description starts with it. */
export const LIVE_MARK = "Orrery live channel";

/** How a live channel's subscription id starts. */
export const LIVE_SUBSCRIPTION_PREFIX = "urn:ngsi-ld:Subscription:orrery-live-";

/** Whether a subscription is one of the API's live channels (by its id or its description). */
export const isLiveSubscription = (s: { id?: unknown; description?: unknown }) =>
  String(s.id ?? "").startsWith(LIVE_SUBSCRIPTION_PREFIX) ||
  String(s.description ?? "").startsWith(LIVE_MARK);
