ALTER TABLE "sessions" ADD COLUMN "wal_lsn" pg_lsn;
