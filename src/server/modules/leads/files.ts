import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/open';
import { inTransaction } from '../../db/transaction';
import { writeFile } from '../files/index';

/**
 * Applications' files before they were kept in the database (up to migration 0023): brought in at start. The
 * files of applications received since are stored through the file store (modules/files) by routes.ts.
 */

/** A file an application names that is neither in the database nor in the uploads directory. */
export interface MissingUpload {
  leadId: string;
  field: 'picture' | 'document';
  name: string;
}

export interface UploadsAtStart {
  /** Files of older applications copied from the uploads directory into the database by this start. */
  broughtIn: number;
  /** What earlier runs left in the directory: unfinished uploads, and files no application refers to. */
  leftovers: number;
  missing: MissingUpload[];
  /** Files that could not be brought in (left in the directory, tried again at the next start), and why. */
  failed: { name: string; reason: string }[];
}

/**
 * Run at start, once this server holds DATA_DIR and before anyone applies; the uploads directory is then only
 * this server's temporary files of requests being received.
 *
 * - Files of applications received before files were kept in the database (up to migration 0023, in
 *   `uploadsDir` under the name the application's row holds) are copied into the database under that name, each
 *   file in its own transaction. A file already there (an earlier start, another server) is not copied again.
 * - Then the directory is emptied of everything but the files that could not be copied: the copied ones (the
 *   database has them), unfinished uploads of a server that crashed, and files no application refers to.
 * - A file an application names that is in neither place is reported in `missing`, not fatal: its route answers
 *   404 until the server whose DATA_DIR holds it starts.
 */
export async function bringInUploads(db: Queryable, uploadsDir: string): Promise<UploadsAtStart> {
  const { rows: wanted } = await db.execute<{
    lead_id: string;
    field: MissingUpload['field'];
    name: string;
    content_type: string;
  }>(sql`
    select l.id as lead_id, f.field, f.name, f.content_type
    from leads l
    cross join lateral (values ('picture', l.picture_file, l.picture_mime),
      ('document', l.document_file, l.document_mime)) as f (field, name, content_type)
    where not exists (select 1 from stored_files s where s.id = f.name)
    order by l.created_at, l.id, f.field desc`);
  let names: string[];
  try {
    names = await fs.promises.readdir(uploadsDir);
  } catch {
    names = [];
  }
  const present = new Set(names);
  const result: UploadsAtStart = { broughtIn: 0, leftovers: 0, missing: [], failed: [] };
  const brought = new Set<string>();
  const kept = new Set<string>();
  for (const file of wanted) {
    // Names the server wrote itself (hex digits); anything else is not a file of this directory.
    if (!/^[0-9a-f]+$/.test(file.name) || !present.has(file.name)) {
      result.missing.push({ leadId: file.lead_id, field: file.field, name: file.name });
      continue;
    }
    const source = path.join(uploadsDir, file.name);
    try {
      const { size } = await fs.promises.stat(source);
      const copied = await inTransaction(db, (tx) =>
        writeFile(tx, { id: file.name, source, contentType: file.content_type, size }),
      );
      if (copied) result.broughtIn++;
      brought.add(file.name);
    } catch (error) {
      kept.add(file.name);
      result.failed.push({ name: file.name, reason: (error as Error).message });
    }
  }
  const removable = names.filter((name) => !kept.has(name));
  await Promise.all(removable.map((name) => fs.promises.rm(path.join(uploadsDir, name), { force: true })));
  result.leftovers = removable.filter((name) => !brought.has(name)).length;
  return result;
}

/** What `bringInUploads` did, in lines for the server's start-up output. */
export function uploadsAtStartLines(
  result: UploadsAtStart,
  uploadsDir: string,
): { info: string[]; warnings: string[] } {
  const info: string[] = [];
  const warnings: string[] = [];
  if (result.broughtIn > 0)
    info.push(
      `Brought ${result.broughtIn} application file(s) from ${uploadsDir} into the database; the copies there were removed.`,
    );
  if (result.leftovers > 0)
    info.push(`Removed ${result.leftovers} unfinished upload(s) left by an earlier run.`);
  for (const { name, reason } of result.failed)
    warnings.push(
      `Could not bring ${path.join(uploadsDir, name)} into the database (kept there, tried again at the next start): ${reason}`,
    );
  if (result.missing.length > 0) {
    const shown = result.missing
      .slice(0, 10)
      .map((m) => `lead ${m.leadId} ${m.field} ${m.name}`)
      .join(', ');
    const more = result.missing.length > 10 ? ` and ${result.missing.length - 10} more` : '';
    warnings.push(
      `${result.missing.length} application file(s) are neither in the database nor in ${uploadsDir} (answered 404 until the server whose DATA_DIR holds them starts): ${shown}${more}`,
    );
  }
  return { info, warnings };
}
