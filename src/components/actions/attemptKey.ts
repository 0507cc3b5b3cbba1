/**
 * Whether an answer ended an attempt, so the next submit is a new one under a new Idempotency-Key.
 * The server keeps a refusal (422) under its key like a success: the same key would replay it, even
 * after the person fixed its cause (topped up, changed the input). A dropped connection (status 0), a
 * server error or "the first is still running" (409) may not have ended it: the retry keeps the key,
 * so it replays the first answer instead of acting twice.
 */
export const endsAttempt = (statusCode: number | undefined): boolean =>
  statusCode !== undefined && statusCode >= 400 && statusCode < 500 && statusCode !== 409;
