/** Types of throwaway-postgres.mjs, for the TypeScript callers (bench). */
export function findPgBin(): string | undefined;
export function startThrowawayPostgres(): Promise<{ url: string; stop(): void }>;
