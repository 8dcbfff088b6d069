/**
 * The one check for a Postgres schema name that Tempo puts into SQL text. PostgresSaver, PostgresStore and Tempo's
 * own tables put the schema between double quotes without escaping, so only plain identifiers are safe: a letter or
 * underscore, then letters, digits and underscores, at most 63 characters (Postgres' identifier length).
 */
export const SCHEMA_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
