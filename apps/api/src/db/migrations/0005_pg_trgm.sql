-- Idempotent: 0002 already enables it; kept so this step never depends on the order of parallel work.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
