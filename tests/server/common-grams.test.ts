// The letters that most users hold (modules/account/common-grams.ts): read from PostgreSQL's statistics of the
// letter runs' index, kept for ten minutes, then read again in the background. Which letters are common decides
// only how a search is run (the LIKE or the index), never what it finds: checked here through the people list.
// Runs on PGlite and, with DATABASE_URL, on PostgreSQL.

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { commonLetterGrams } from '../../src/server/modules/account/common-grams';
import { call, login, makeScaledContext, makeTestContext, type TestContext } from './helpers';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await makeScaledContext({ users: 400, postings: 50 });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

const rows = async (text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as Record<string, unknown>[];

describe('the letters most users hold', () => {
  it('are none before the database has statistics, read once however many searches ask', async () => {
    // A new database (its one user, the admin, is too few for autovacuum to analyze).
    const fresh = await makeTestContext({ demo: false });
    try {
      const stats = await fresh.database.pool.query(
        `select 1 from pg_stats where tablename = 'users_type_letters_idx'`,
      );
      expect(stats.rows).toEqual([]);
      // Five searches at once on a server just started share one read of the statistics (one set).
      const sets = await Promise.all([1, 2, 3, 4, 5].map(() => commonLetterGrams(fresh.database.db)));
      expect([...sets[0]]).toEqual([]);
      for (const set of sets) expect(set).toBe(sets[0]);
    } finally {
      await fresh.close();
    }
  });

  it('are read from the statistics, kept ten minutes, then read again while the old ones still serve', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T08:00:00Z'));
    // The seed ends with VACUUM ANALYZE; every seeded e-mail is at scale.tierdesk.in, a surname is one user's in 25.
    const first = await commonLetterGrams(ctx.database.db);
    expect(first.has('scale')).toBe(true);
    expect(first.has('tierdesk')).toBe(true);
    const [{ surname }] = await rows(
      `select lower(split_part(name, ' ', 2)) as surname from users where type = 1 group by 1 order by count(*) desc limit 1`,
    );
    expect(first.has(String(surname))).toBe(false);

    // Every e-mail moves to another domain, and the statistics say so.
    await rows(`update users set email = replace(email, '@scale.tierdesk.in', '@mail.example.org')`);
    await rows('analyze users');
    // Within ten minutes the set read first still serves, call after call: nothing is read again.
    vi.setSystemTime(new Date('2026-11-25T08:09:00Z'));
    for (let i = 0; i < 5; i++) {
      expect((await commonLetterGrams(ctx.database.db)).has('scale')).toBe(true);
      await rows('select 1');
    }

    // Past ten minutes: the next call still answers with the old set and reads the statistics again.
    vi.setSystemTime(new Date('2026-11-25T08:11:00Z'));
    expect((await commonLetterGrams(ctx.database.db)).has('scale')).toBe(true);
    await vi.waitFor(async () => {
      const now = await commonLetterGrams(ctx.database.db);
      expect(now.has('example')).toBe(true);
      expect(now.has('scale')).toBe(false);
    });
  });

  it('change how a search runs, not what it finds', async () => {
    const { token } = await login(ctx.app, ctx.config.adminUsername, ctx.config.adminPassword);
    const common = await commonLetterGrams(ctx.database.db);
    const [{ surname }] = await rows(
      `select lower(split_part(name, ' ', 2)) as surname from users where type = 1 group by 1 order by count(*) desc limit 1`,
    );
    // One text of each kind: letters most users hold (the LIKE) and a surname (the letter runs' index).
    for (const [text, isCommon] of [
      ['example', true],
      [String(surname), false],
    ] as const) {
      expect(common.has(text), text).toBe(isCommon);
      const res = await call(ctx.app, 'GET', 'account/fetch', {
        token,
        query: { type: '1', page: '1', limit: '10', searchText: text },
      });
      expect(res.status, text).toBe(200);
      const want = await rows(
        `select id from users where type = 1 and search like $1 order by created_at desc, id desc limit 10`,
        [`%${text}%`],
      );
      const [{ n }] = await rows(`select count(*)::int as n from users where type = 1 and search like $1`, [
        `%${text}%`,
      ]);
      expect(want.length, text).toBeGreaterThan(0);
      expect(
        res.body.result.users.map((u: { _id: string }) => u._id),
        text,
      ).toEqual(want.map((r) => r.id));
      expect(res.body.result.totalCounts, text).toBe(Math.min(Number(n), 1000));
    }
  });
});
