import type { Queryable } from '../../db/open';
import { runStatement } from '../../db/statements';

/**
 * Runs of letters that at least this share of users hold (PostgreSQL's statistics of the letter runs' index): a
 * search for one of them is a LIKE planned with its text, not one key of that index. The index hands over every
 * user holding the key before the first is read (all 100,000 for 'tie' of the seed's e-mail domain: 20-24 ms at
 * the HTTP call against 6-12 ms for the LIKE, whose plan reads the table newest first to its thousandth match);
 * for a surname held by one customer in twenty the index is the quicker (README, Performance).
 */
const COMMON_SHARE = 0.1;

/** How long a read of the statistics serves before it is read again (autovacuum's ANALYZE refreshes them). */
const FRESH_FOR_MS = 10 * 60_000;

interface Known {
  grams: ReadonlySet<string>;
  /** When the statistics were last read (or a read failed); unset until the first read ends. */
  readAt?: number;
  /** The read under way, shared by every call that needs it. */
  reading?: Promise<ReadonlySet<string>>;
}

/** Per database (a pool's drizzle instance, as the kept statements are). */
const known = new WeakMap<object, Known>();

/**
 * The index's most common elements with their shares. most_common_elem_freqs has three more entries than there
 * are elements (the least and greatest share and the share of nulls): paired with no element, they are left out.
 */
const COMMON_GRAMS = `select e.gram from pg_stats s,
    unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as e(gram, share)
  where s.tablename = 'users_type_letters_idx' and s.attname = 'search_letter_grams'
    and e.gram is not null and e.share >= $1`;

/** Reads the statistics into `entry`, once however many calls ask; a failed read keeps what was known. */
function readInto(db: Queryable, entry: Known): Promise<ReadonlySet<string>> {
  entry.reading ??= runStatement<{ gram: string }>(db, COMMON_GRAMS, [COMMON_SHARE]).then(
    (rows) => {
      entry.grams = new Set(rows.map((r) => r.gram));
      entry.readAt = Date.now();
      entry.reading = undefined;
      return entry.grams;
    },
    () => {
      entry.readAt = Date.now();
      entry.reading = undefined;
      return entry.grams;
    },
  );
  return entry.reading;
}

/**
 * The letter runs too common for their index to serve a search (COMMON_SHARE). Only a search's speed depends on
 * this set, never its answer: the index and the LIKE find the same users. The first call waits for the
 * statistics; later ones answer with what is known and, past FRESH_FOR_MS, read them again in the background.
 * No statistics yet (a new database, PGlite before an ANALYZE) is an empty set.
 */
export async function commonLetterGrams(db: Queryable): Promise<ReadonlySet<string>> {
  let entry = known.get(db);
  if (!entry) {
    entry = { grams: new Set() };
    known.set(db, entry);
  }
  if (entry.readAt === undefined) return readInto(db, entry);
  if (Date.now() - entry.readAt >= FRESH_FOR_MS) void readInto(db, entry);
  return entry.grams;
}
