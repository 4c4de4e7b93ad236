import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UserType } from '../../../shared/enums';
import {
  monthReportQuerySchema,
  productsReportSchema,
  topRetailersSchema,
  trendsQuerySchema,
  trendsSchema,
} from '../../../shared/schemas/reports';
import {
  commissionReportSchema,
  envelope,
  type UserCountKey,
  type UserCounts,
  userCountsSchema,
} from '../../../shared/wire';
import { pagingQuery } from '../../http/paging';
import { reportReads } from '../../http/reader';
import { caller, guardedReport } from '../../http/session';
import { countsOf } from '../account/index';
import { networkScopeId } from '../network/index';
import { commissionReportOf, productSalesOf, topRetailersOf, trendsOf } from './queries';

/** What each dashboard count counts (seed section 3, Dashboard stats): a type, and whether only ACTIVE users. */
const COUNTS: Record<UserCountKey, [UserType, 'active' | 'total']> = {
  ACTIVE_DISTRIBUTORS: [UserType.DISTRIBUTOR, 'active'],
  ACTIVE_EMPLOYEES: [UserType.EMPLOYEE, 'active'],
  ACTIVE_MASTER_DISTRIBUTORS: [UserType.MASTER_DISTRIBUTOR, 'active'],
  ACTIVE_RETAILERS: [UserType.RETAILER, 'active'],
  CUSTOMER: [UserType.CUSTOMER, 'total'],
  DISTRIBUTOR: [UserType.DISTRIBUTOR, 'total'],
  EMPLOYEE: [UserType.EMPLOYEE, 'total'],
  MASTER_DISTRIBUTOR: [UserType.MASTER_DISTRIBUTOR, 'total'],
  RETAILER: [UserType.RETAILER, 'total'],
};

const tags = ['reports'];

export default async function reportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  /**
   * Every signed-in panel user lands on /home, so every one of them gets the counts of its own network: read
   * from the counter rows the writes keep (modules/account/counts.ts), never by counting the users table.
   */
  app.get(
    '/report/userCounts',
    {
      config: reportReads,
      schema: {
        tags,
        summary: 'Dashboard counts over the caller’s network',
        description: 'private',
        response: { 200: envelope(z.strictObject({ userReport: z.array(userCountsSchema) })) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      const counts = await countsOf(request.reader, networkScopeId(user));
      const report = Object.fromEntries(
        Object.entries(COUNTS).map(([key, [type, which]]) => [key, counts.get(type)?.[which] ?? 0]),
      ) as UserCounts;
      return { result: { userReport: [report] } };
    },
  );

  /**
   * The dashboard's money tiles: commissions credited today and this month (India's calendar, Asia/Kolkata,
   * whatever the server's time zone) and the total now in clearing, over the caller's network.
   */
  app.get(
    '/report/commissions',
    {
      config: reportReads,
      schema: {
        tags,
        summary: 'Commissions today, this month (Asia/Kolkata) and in clearing, over the caller’s network',
        description: 'private',
        response: { 200: envelope(z.strictObject({ commissions: commissionReportSchema })) },
      },
    },
    async (request) => {
      const commissions = await commissionReportOf(request.reader, caller(request).user);
      return { result: { commissions } };
    },
  );

  /**
   * The dashboard's charts (issue 55), over the caller's network, each from counter rows kept in the writes'
   * transactions: the last `days` days' commissions and sales (the panel asks 60: the last 30 days and the 30 before
   * them, its comparison line), a month's top retailers by their own commission, and a month's sales per product.
   */
  app.get(
    '/report/trends',
    {
      config: reportReads,
      schema: {
        tags,
        summary:
          'Commissions and sales per day over the caller’s network, the last `days` days (Asia/Kolkata)',
        description: 'private',
        querystring: trendsQuerySchema,
        response: { 200: envelope(trendsSchema) },
      },
    },
    async (request) => ({
      result: { days: await trendsOf(request.reader, caller(request).user, request.query.days) },
    }),
  );

  app.get(
    '/report/top',
    guardedReport('topRetailers', 'read', {
      tags,
      summary: 'The month’s top retailers of the caller’s network by their own commission',
      querystring: monthReportQuerySchema.extend({ limit: pagingQuery.shape.limit }),
      response: { 200: envelope(topRetailersSchema) },
    }),
    async (request) => {
      const { month, limit } = request.query;
      const retailers = await topRetailersOf(request.reader, caller(request).user, month, limit);
      return { result: { month, retailers } };
    },
  );

  app.get(
    '/report/products',
    {
      config: reportReads,
      schema: {
        tags,
        summary: 'The month’s sales per product over the caller’s network',
        description: 'private',
        querystring: monthReportQuerySchema,
        response: { 200: envelope(productsReportSchema) },
      },
    },
    async (request) => {
      const { month } = request.query;
      return {
        result: { month, products: await productSalesOf(request.reader, caller(request).user, month) },
      };
    },
  );
}
