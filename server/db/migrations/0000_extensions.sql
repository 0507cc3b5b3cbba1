-- Trigram search (phone numbers, names). PGlite loads the extension's code at start (see client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
