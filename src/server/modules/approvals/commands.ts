import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { APPROVAL_MSG } from '../../../shared/constants/approvals';
import { TIER_TYPES, UserType } from '../../../shared/enums';
import { paiseToRupees } from '../../../shared/money';
import type { AdjustInput, CommandKind, PowerCommandKind } from '../../../shared/schemas/approvals';
import { type PayoutInput, SALES_MSG } from '../../../shared/schemas/sales';
import type { WireCommand } from '../../../shared/wire';
import { isUniqueViolation } from '../../db/errors';
import type { Db, Queryable, Tx } from '../../db/open';
import { pendingCommands, users } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../http/errors';
import {
  type AdminDraft,
  checkAdminDraft,
  createAdmin,
  lockedAdmin,
  lockedEmployee,
  newOneTimePassword,
  promoteToAdmin,
  resetAdminPassword,
  resetSecondStep,
} from '../account/index';
import { type Actor, auditRecorder } from '../audit/index';
import { approvalChanged } from '../events/index';
import {
  adjustIn,
  foldedReference,
  lockPayoutMaker,
  lockPayoutReference,
  type PostingRow,
  payoutByReference,
  payoutIn,
  refuseAboveAvailable,
  replayPayout,
  unapprovedPayoutsToday,
} from '../ledger/index';
import { approvers, notify } from '../notifications/index';

/**
 * Maker-checker (issues 43 and 51, Fineract's maker-checker). Money: a payout above the configured line, a maker's
 * payouts past the daily line, any payout an employee makes, and every manual adjustment are written as PENDING
 * commands and move nothing. Power: making an admin (a new one, or an employee promoted) and resetting another admin's
 * password or second step are commands too. An admin who is neither the command's maker nor the person it is for
 * approves it, and the command runs (through the ledger's payoutIn or adjustIn, or the account module's admin
 * functions) in the transaction that marks it APPROVED; or rejects it with a reason. Money commands are for tier
 * users only, so the person paid is never an admin who could approve. The command's row is locked while it is
 * decided, so two admins approving at once run it once: the second sees it APPROVED (409). An approval the wallet no
 * longer covers is refused (409, the balance's message) and the command stays PENDING.
 */

type CommandRow = typeof pendingCommands.$inferSelect;

/** Who is deciding or making: the session's user and its audit identity. */
export interface Person {
  id: string;
  type: number;
  actor: Actor;
  ip: string | null;
}

/** The lines a payout is judged against (PAYOUT_APPROVAL_ABOVE_RUPEES, PAYOUT_APPROVAL_DAILY_RUPEES), in paise. */
export interface PayoutLines {
  abovePaise: number;
  dailyPaise: number;
}

/**
 * Why a payout of `amountPaise` waits for a second person, or null when its maker may pay it alone: every
 * employee's payout waits; an admin's waits above the per-payout line, or when its payouts today (`todayPaise`,
 * those paid without a second person) would pass the daily line with it.
 */
export function payoutApprovalReason(
  makerType: number,
  amountPaise: number,
  todayPaise: bigint,
  lines: PayoutLines,
): 'maker' | 'above' | 'daily' | null {
  if (makerType !== UserType.ADMIN) return 'maker';
  if (amountPaise > lines.abovePaise) return 'above';
  if (todayPaise + BigInt(amountPaise) > BigInt(lines.dailyPaise)) return 'daily';
  return null;
}

const userOf = alias(users, 'command_user');
const makerOf = alias(users, 'command_maker');
const checkerOf = alias(users, 'command_checker');

const COMMAND_COLUMNS = {
  command: pendingCommands,
  user: { id: userOf.id, name: userOf.name, type: userOf.type },
  makerName: makerOf.name,
  checkerName: checkerOf.name,
};

type Joined = {
  command: CommandRow;
  user: { id: string; name: string; type: number } | null;
  makerName: string;
  checkerName: string | null;
};

/** What a new admin's command shows of it (never its district's ids, never a password: it has none). */
const detailsOf = (details: unknown): WireCommand['details'] => {
  if (!details || typeof details !== 'object') return null;
  const d = details as Partial<AdminDraft>;
  return { name: d.name ?? '', userName: d.userName ?? '', email: d.email ?? null, mobile: d.mobile ?? null };
};

const toWire = ({ command: c, user, makerName, checkerName }: Joined): WireCommand => ({
  _id: c.id,
  kind: c.kind as WireCommand['kind'],
  status: c.status as WireCommand['status'],
  user: user ? { _id: user.id, name: user.name, type: user.type as UserType } : null,
  amount: c.amountPaise === null ? null : paiseToRupees(c.amountPaise),
  reference: c.reference,
  note: c.note,
  reason: c.reason,
  details: detailsOf(c.details),
  maker: { _id: c.makerId, name: makerName },
  checker: c.checkerId ? { _id: c.checkerId, name: checkerName ?? '' } : null,
  rejectionReason: c.rejectionReason,
  postingId: c.postingId,
  createdAt: c.createdAt.toISOString(),
  decidedAt: c.decidedAt?.toISOString() ?? null,
});

function joined(q: Queryable) {
  return q
    .select(COMMAND_COLUMNS)
    .from(pendingCommands)
    .leftJoin(userOf, eq(userOf.id, pendingCommands.userId))
    .innerJoin(makerOf, eq(makerOf.id, pendingCommands.makerId))
    .leftJoin(checkerOf, eq(checkerOf.id, pendingCommands.checkerId));
}

export async function commandById(q: Queryable, id: string): Promise<WireCommand | undefined> {
  const [row] = await joined(q).where(eq(pendingCommands.id, id));
  return row ? toWire(row as Joined) : undefined;
}

export interface CommandFilter {
  status?: string;
  /** An employee reads only the commands it made. */
  makerId?: string;
}

/** A page of commands, newest first, and their number. */
export async function listCommands(
  db: Db,
  filter: CommandFilter,
  page: { limit: number; offset: number },
): Promise<{ commands: WireCommand[]; total: number }> {
  const where = and(
    filter.status ? eq(pendingCommands.status, filter.status) : undefined,
    filter.makerId ? eq(pendingCommands.makerId, filter.makerId) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    joined(db)
      .where(where)
      .orderBy(desc(pendingCommands.createdAt), desc(pendingCommands.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(pendingCommands).where(where),
  ]);
  return { commands: rows.map((r) => toWire(r as Joined)), total };
}

type CommandValues = Pick<CommandRow, 'kind' | 'userId'> &
  Partial<Pick<CommandRow, 'amountPaise' | 'reference' | 'note' | 'reason' | 'details'>>;

async function insertCommand(tx: Tx, maker: Person, values: CommandValues) {
  const id = randomUUID();
  await tx.insert(pendingCommands).values({ id, ...values, status: 'PENDING', makerId: maker.id });
  await approvalChanged(tx, { id, status: 'PENDING', kind: values.kind as CommandKind, maker: maker.id });
  // The new admin's fields beside the command's, so the trail masks its mobile and email as it masks any user's.
  const { details, ...recorded } = values;
  await auditRecorder(
    maker.actor,
    maker.ip,
    'approval.request',
    'approval',
  )(tx, {
    entityId: id,
    after: { ...recorded, ...(details as Record<string, unknown> | null), status: 'PENDING' },
  });
  await notify(tx, 'approval.waiting', {
    to: await approvers(tx, maker.id),
    data: { commandId: id, kind: values.kind, amount: rupeesOf(values.amountPaise), maker: maker.actor.name },
  });
  return id;
}

const rupeesOf = (paise: number | null | undefined) =>
  paise === null || paise === undefined ? null : paiseToRupees(paise);

/**
 * Tells a command's maker (by e-mail) and the integrators (approval.decided) that it was decided, in the decision's
 * transaction.
 */
async function notifyDecision(
  tx: Tx,
  command: CommandRow,
  checker: Person,
  decision: {
    status: 'APPROVED' | 'REJECTED';
    reason: string | null;
    userId: string | null;
    decidedAt: Date;
  },
) {
  const amount = rupeesOf(command.amountPaise);
  await notify(tx, 'approval.decided', {
    to: [{ userId: command.makerId }],
    data: {
      commandId: command.id,
      kind: command.kind,
      status: decision.status,
      amount,
      checker: checker.actor.name,
      reason: decision.reason,
    },
    webhook: {
      commandId: command.id,
      kind: command.kind,
      status: decision.status,
      userId: decision.userId,
      amount,
      reason: decision.reason,
      decidedAt: decision.decidedAt.toISOString(),
    },
  });
}

/**
 * Money commands are for tier users only (master distributors, distributors, retailers): never staff, so the money
 * never goes to someone who could approve it, nor to a customer. An unknown user is a 404.
 */
async function checkTierUser(tx: Tx, userId: string) {
  const [user] = await tx.select({ type: users.type }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound(SALES_MSG.userNotFound);
  if (!(TIER_TYPES as readonly number[]).includes(user.type))
    throw badRequest(SALES_MSG.tierUsersOnly, 'userId');
}

export type PayoutAnswer =
  | { command: WireCommand; message: string }
  | { posting: PostingRow; replay: boolean };

/** A payout command made earlier under `reference` (any state but REJECTED: a rejection frees the reference). */
const heldCommand = async (tx: Tx, reference: string) =>
  (
    await tx
      .select()
      .from(pendingCommands)
      .where(
        and(
          eq(pendingCommands.kind, 'PAYOUT'),
          sql`${pendingCommands.status} <> 'REJECTED'`,
          sql`lower(btrim(${pendingCommands.reference})) = ${foldedReference(reference)}`,
        ),
      )
      .limit(1)
  )[0];

/**
 * `wallet/payout`: paid now, or made a command for approval (payoutApprovalReason), decided in one transaction.
 * Locks in one order: the maker's day (so two payouts of one maker are counted one after the other against the
 * daily line), the reference, then the wallet (payoutIn). The reference stays an idempotency key: a payout already
 * recorded under it replays (`posting`), a command already made under it with the same user and amount answers
 * again (`command`), and either with other content is a 409. A payout above the available balance is refused now
 * (400), whether it would be paid or wait.
 */
export async function makePayout(
  db: Db,
  ledgerKey: Buffer,
  maker: Person,
  input: PayoutInput,
  lines: PayoutLines,
): Promise<PayoutAnswer> {
  try {
    return await inTransaction(db, async (tx): Promise<PayoutAnswer> => {
      await checkTierUser(tx, input.userId);
      await lockPayoutMaker(tx, maker.id);
      await lockPayoutReference(tx, input.reference);
      const paid = await payoutByReference(tx, input.reference);
      if (paid) return replayPayout(paid, input);
      const held = await heldCommand(tx, input.reference);
      if (held) {
        if (held.userId !== input.userId || held.amountPaise !== input.amount)
          throw conflict(SALES_MSG.referenceUsed);
        return { command: (await commandById(tx, held.id))!, message: SALES_MSG.payoutPending };
      }
      const today = await unapprovedPayoutsToday(tx, maker.id);
      const why = payoutApprovalReason(maker.type, input.amount, today, lines);
      if (why) {
        await refuseAboveAvailable(tx, input.userId, input.amount);
        const id = await insertCommand(tx, maker, {
          kind: 'PAYOUT',
          userId: input.userId,
          amountPaise: input.amount,
          reference: input.reference.trim(),
        });
        return {
          command: (await commandById(tx, id))!,
          message: why === 'daily' ? SALES_MSG.payoutPendingDaily : SALES_MSG.payoutPending,
        };
      }
      return payoutIn(tx, ledgerKey, maker.id, input, {
        audit: auditRecorder(maker.actor, maker.ip, 'wallet.payout', 'posting'),
      });
    });
  } catch (error) {
    // The same reference for two different users at once: the unique index decides, the loser replays.
    if (!isUniqueViolation(error)) throw error;
    const prior = await payoutByReference(db, input.reference);
    if (!prior) throw error;
    return replayPayout(prior, input);
  }
}

/** `wallet/adjust`: always a command for approval, for a tier user. */
export async function submitAdjustment(db: Db, maker: Person, input: AdjustInput): Promise<WireCommand> {
  return inTransaction(db, async (tx) => {
    await checkTierUser(tx, input.userId);
    const id = await insertCommand(tx, maker, {
      kind: 'ADJUSTMENT',
      userId: input.userId,
      amountPaise: input.amount,
      note: input.note,
      reason: input.reason,
    });
    return (await commandById(tx, id))!;
  });
}

/** `account/create` with type 0: the new admin as a command; its fields are checked now and at approval. */
export async function submitAdminCreation(db: Db, maker: Person, draft: AdminDraft): Promise<WireCommand> {
  return inTransaction(db, async (tx) => {
    await checkAdminDraft(tx, draft);
    const id = await insertCommand(tx, maker, {
      kind: 'ADMIN_CREATE',
      userId: null,
      details: draft,
    });
    return (await commandById(tx, id))!;
  });
}

/**
 * A promotion, or a reset of another admin's password or second step, as a command for approval. One of each kind
 * per person waits at a time (a second is 409; pending_commands_power_once decides a race). Nobody resets its own
 * this way.
 */
export async function submitPowerCommand(
  db: Db,
  maker: Person,
  kind: Exclude<PowerCommandKind, 'ADMIN_CREATE'>,
  userId: string,
  reason: string,
): Promise<WireCommand> {
  try {
    return await inTransaction(db, async (tx) => {
      if (kind === 'ADMIN_PROMOTE') await lockedEmployee(tx, userId);
      else {
        await lockedAdmin(tx, userId);
        if (userId === maker.id) throw badRequest(APPROVAL_MSG.notForYourself);
      }
      const [waiting] = await tx
        .select({ id: pendingCommands.id })
        .from(pendingCommands)
        .where(
          and(
            eq(pendingCommands.kind, kind),
            eq(pendingCommands.userId, userId),
            eq(pendingCommands.status, 'PENDING'),
          ),
        );
      if (waiting) throw conflict(APPROVAL_MSG.alreadyPending);
      const id = await insertCommand(tx, maker, { kind, userId, reason });
      return (await commandById(tx, id))!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(APPROVAL_MSG.alreadyPending);
    throw error;
  }
}

/**
 * The command `id`, locked for its decision, and refused unless PENDING and decided by someone else than its maker
 * and the person it is for.
 */
async function lockForDecision(tx: Tx, id: string, checker: Person): Promise<CommandRow> {
  const [command] = await tx.select().from(pendingCommands).where(eq(pendingCommands.id, id)).for('update');
  if (!command) throw notFound(SALES_MSG.commandNotFound);
  if (command.status === 'APPROVED') throw conflict(SALES_MSG.alreadyApproved);
  if (command.status === 'REJECTED') throw conflict(SALES_MSG.alreadyRejected);
  if (command.makerId === checker.id) throw forbidden(SALES_MSG.makerCannotDecide);
  if (command.userId === checker.id) throw forbidden(APPROVAL_MSG.subjectCannotDecide);
  return command;
}

/** Kinds whose approval makes a one-time password for the checker to hand over. */
const MAKES_PASSWORD: readonly CommandKind[] = ['ADMIN_CREATE', 'ADMIN_PASSWORD_RESET'];

/** What the approval did: its message, and a one-time password for the checker alone, once. */
const APPROVED_MSG: Record<CommandKind, string> = {
  PAYOUT: SALES_MSG.commandApproved,
  ADJUSTMENT: SALES_MSG.commandApproved,
  ADMIN_CREATE: APPROVAL_MSG.adminCreated,
  ADMIN_PROMOTE: APPROVAL_MSG.adminPromoted,
  ADMIN_PASSWORD_RESET: APPROVAL_MSG.passwordReset,
  ADMIN_SECOND_STEP_RESET: APPROVAL_MSG.secondStepReset,
};

export interface Approval {
  command: WireCommand;
  message: string;
  /** An approved admin creation or password reset: the new password, for the checker to hand over in person. */
  oneTimePassword?: string;
}

/** `approvals/approve/:id`: runs the command and marks it APPROVED, in one transaction. */
export async function approveCommand(
  db: Db,
  ledgerKey: Buffer,
  id: string,
  checker: Person,
): Promise<Approval> {
  // A command's kind never changes: a password it makes is hashed before the transaction that holds its lock.
  const [peek] = await db
    .select({ kind: pendingCommands.kind })
    .from(pendingCommands)
    .where(eq(pendingCommands.id, id));
  const fresh =
    peek && MAKES_PASSWORD.includes(peek.kind as CommandKind) ? await newOneTimePassword() : undefined;
  return inTransaction(db, async (tx) => {
    const command = await lockForDecision(tx, id, checker);
    const kind = command.kind as CommandKind;
    const record = (
      action: Parameters<typeof auditRecorder>[2],
      entity: Parameters<typeof auditRecorder>[3],
    ) => auditRecorder(checker.actor, checker.ip, action, entity);
    let postingId: string | null = null;
    let userId = command.userId;
    switch (kind) {
      case 'PAYOUT': {
        await checkTierUser(tx, command.userId!);
        try {
          const { posting } = await payoutIn(
            tx,
            ledgerKey,
            checker.id,
            { userId: command.userId!, amount: command.amountPaise!, reference: command.reference ?? '' },
            { audit: record('wallet.payout', 'posting'), commandId: command.id },
          );
          postingId = posting.id;
        } catch (error) {
          // The balance no longer covers it: a state to wait out, not a wrong input.
          if (error instanceof HttpError && error.status === 400) throw conflict(error.message);
          throw error;
        }
        break;
      }
      case 'ADJUSTMENT': {
        await checkTierUser(tx, command.userId!);
        const { userId: adjusted, amountPaise: amount, note, reason } = command;
        const posting = await adjustIn(
          tx,
          ledgerKey,
          checker.id,
          { userId: adjusted!, amount: amount!, note: note!, reason: reason! },
          { audit: record('wallet.adjust', 'posting') },
        );
        postingId = posting.id;
        break;
      }
      case 'ADMIN_CREATE':
        userId = await createAdmin(
          tx,
          command.details as AdminDraft,
          fresh!.passwordHash,
          record('user.create', 'user'),
        );
        break;
      case 'ADMIN_PROMOTE':
        await promoteToAdmin(tx, command.userId!, record('user.promote', 'user'));
        break;
      case 'ADMIN_PASSWORD_RESET':
        await lockedAdmin(tx, command.userId!);
        await resetAdminPassword(tx, command.userId!, fresh!.passwordHash);
        await record('user.password.reset', 'user')(tx, {
          entityId: command.userId,
          after: { passwordUpdatedAt: null, sessions: 'ended' },
        });
        break;
      case 'ADMIN_SECOND_STEP_RESET':
        await lockedAdmin(tx, command.userId!);
        await resetSecondStep(tx, command.userId!);
        await record('user.secondStep.reset', 'user')(tx, {
          entityId: command.userId,
          after: { passwordUpdatedAt: null, sessions: 'ended' },
        });
        break;
    }
    const decidedAt = new Date();
    await tx
      .update(pendingCommands)
      .set({ status: 'APPROVED', checkerId: checker.id, postingId, userId, decidedAt })
      .where(eq(pendingCommands.id, id));
    await approvalChanged(tx, { id, status: 'APPROVED', kind, maker: command.makerId });
    await record('approval.approve', 'approval')(tx, {
      entityId: id,
      before: { status: 'PENDING', makerId: command.makerId },
      after: { status: 'APPROVED', checkerId: checker.id, postingId, userId },
    });
    await notifyDecision(tx, command, checker, { status: 'APPROVED', reason: null, userId, decidedAt });
    return {
      command: (await commandById(tx, id))!,
      message: APPROVED_MSG[kind],
      ...(fresh && MAKES_PASSWORD.includes(kind) ? { oneTimePassword: fresh.password } : {}),
    };
  });
}

/** `approvals/reject/:id {reason}`: marks it REJECTED with the reason; nothing moves. */
export async function rejectCommand(db: Db, id: string, checker: Person, reason: string) {
  return inTransaction(db, async (tx) => {
    const command = await lockForDecision(tx, id, checker);
    const decidedAt = new Date();
    await tx
      .update(pendingCommands)
      .set({ status: 'REJECTED', checkerId: checker.id, rejectionReason: reason, decidedAt })
      .where(eq(pendingCommands.id, id));
    await notifyDecision(tx, command, checker, {
      status: 'REJECTED',
      reason,
      userId: command.userId,
      decidedAt,
    });
    await approvalChanged(tx, {
      id,
      status: 'REJECTED',
      kind: command.kind as CommandKind,
      maker: command.makerId,
    });
    await auditRecorder(
      checker.actor,
      checker.ip,
      'approval.reject',
      'approval',
    )(tx, {
      entityId: id,
      before: { status: 'PENDING', makerId: command.makerId },
      after: { status: 'REJECTED', checkerId: checker.id, rejectionReason: reason },
    });
    return (await commandById(tx, id))!;
  });
}
