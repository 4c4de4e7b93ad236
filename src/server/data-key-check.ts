import { isNotNull } from 'drizzle-orm';
import { SetupError } from './config';
import type { Db } from './db/open';
import { dataKeyCheck, leads, users } from './db/schema';
import { sealsVerify } from './modules/ledger/index';
import type { PersonalDataCipher, ServerKeys } from './security/personal-data';

type Keys = Pick<ServerKeys, 'cipher' | 'ledgerKey' | 'dataKeyCheck' | 'dataKeySource'>;

/** The key as a refusal names it: DATA_KEY, or the file it was read from. */
const named = (source: string) => (source === 'DATA_KEY' ? 'DATA_KEY' : `The data key in ${source}`);

/** A database whose recorded check value is another key's. */
export const keyDiffers = (source: string) =>
  new SetupError(
    `${named(source)} differs from the key this database was sealed with: start every server with the same DATA_KEY`,
  );

/** A database from before the check whose postings and personal data the key cannot open. */
export const keyDoesNotOpen = (source: string) =>
  new SetupError(
    `${named(source)} does not open the data this database holds (its ledger's seals and Aadhar numbers): start the server with the key that sealed them`,
  );

/**
 * Whether the cipher opens stored Aadhar numbers, judged on a few: true when one opens, false when none does,
 * null when none is stored.
 */
async function personalDataOpens(db: Db, cipher: PersonalDataCipher): Promise<boolean | null> {
  const sealed = [
    ...(await db
      .select({ value: users.aadharCipher })
      .from(users)
      .where(isNotNull(users.aadharCipher))
      .limit(3)),
    ...(await db.select({ value: leads.aadharCipher }).from(leads).limit(3)),
  ];
  if (sealed.length === 0) return null;
  return sealed.some(({ value }) => {
    try {
      cipher.decrypt(value ?? '');
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The database remembers which data key sealed it (the data_key_check row), so a server or a command started with
 * another key refuses (a SetupError, one line) before it writes what the others could not read or reads what it
 * cannot verify. The first start records the key's check value. A database from before the check that already
 * holds data is first opened with the key (a posting's seal, a stored Aadhar number): a wrong key is refused there
 * too, never recorded. `record: false` (a command that only reads, such as reconcile) checks without recording.
 * Servers starting at once on a new database race to record; the first value stands and the others compare with it.
 */
export async function checkDataKey(db: Db, keys: Keys, opts: { record: boolean } = { record: true }) {
  const recorded = async () => (await db.select({ value: dataKeyCheck.value }).from(dataKeyCheck))[0]?.value;
  let value = await recorded();
  if (value === undefined) {
    const evidence = [await sealsVerify(db, keys.ledgerKey), await personalDataOpens(db, keys.cipher)];
    if (!evidence.includes(true) && evidence.includes(false)) throw keyDoesNotOpen(keys.dataKeySource);
    if (!opts.record) return;
    await db.insert(dataKeyCheck).values({ value: keys.dataKeyCheck }).onConflictDoNothing();
    value = await recorded();
  }
  if (value !== keys.dataKeyCheck) throw keyDiffers(keys.dataKeySource);
}
