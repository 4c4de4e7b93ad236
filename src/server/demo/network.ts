import { randomUUID } from 'node:crypto';
import { count, ne } from 'drizzle-orm';
import { UserStatus, UserType } from '../../shared/enums';
import { verhoeffDigit } from '../../shared/identity';
import type { Config } from '../config';
import type { Db } from '../db/open';
import { districts, products, providers, states, tehsils, users, wallets } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { countNewUser, hashPassword } from '../modules/account/index';
import { childPath } from '../modules/network/index';
import type { PersonalDataCipher } from '../security/personal-data';

/** A valid (Verhoeff-checked) made-up Aadhar number per demo customer, stored as the API stores it. */
export function demoAadharNumber(index: number) {
  const base = `23456${String(index).padStart(6, '0')}`;
  return `${base}${verhoeffDigit(base)}`;
}
function demoAadhar(cipher: PersonalDataCipher, index: number) {
  const aadhar = demoAadharNumber(index);
  return {
    aadharCipher: cipher.encrypt(aadhar),
    aadharHash: cipher.searchHash(aadhar),
    aadharLast4: aadhar.slice(-4),
  };
}

/** Password of every demo user that has already chosen one (README lists the sign-ins). */
export const DEMO_PASSWORD = 'Demo@1234';

const DEMO_LOCATIONS: { state: string; districts: { name: string; tehsils: string[] }[] }[] = [
  {
    state: 'Rajasthan',
    districts: [
      { name: 'Jaipur', tehsils: ['Sanganer', 'Amber', 'Chomu'] },
      { name: 'Jodhpur', tehsils: ['Osian', 'Phalodi'] },
    ],
  },
  {
    state: 'Maharashtra',
    districts: [
      { name: 'Pune', tehsils: ['Haveli', 'Mulshi', 'Baramati'] },
      { name: 'Nagpur', tehsils: ['Kamptee', 'Hingna'] },
    ],
  },
  {
    state: 'Uttar Pradesh',
    districts: [{ name: 'Lucknow', tehsils: ['Malihabad', 'Mohanlalganj'] }],
  },
];

/** True when nothing but the bootstrap admin exists: demo data is only ever added to an empty database. */
export async function isEmptyNetwork(db: Db) {
  const [others] = await db.select({ n: count() }).from(users).where(ne(users.type, UserType.ADMIN));
  const [stateRows] = await db.select({ n: count() }).from(states);
  return others.n === 0 && stateRows.n === 0;
}

/**
 * The demo network: 3 states with districts and tehsils, 2 providers with 3 products, 2 master distributors, 4 distributors, 8 retailers
 * (the last one INACTIVE), 20 customers and 2 employees (the second still on the initial password).
 */
export async function seedDemoNetwork(
  db: Db,
  config: Pick<Config, 'initialPassword'>,
  cipher: PersonalDataCipher,
) {
  const demoHash = await hashPassword(DEMO_PASSWORD);
  const initialHash = await hashPassword(config.initialPassword);
  const now = Date.now();
  let tick = 0;
  // Distinct creation times keep list order stable and readable.
  const createdAt = () => new Date(now - 3_600_000 + 1000 * tick++);

  await inTransaction(db, async (tx) => {
    const places: { districtId: string; tehsilId: string }[] = [];
    for (const s of DEMO_LOCATIONS) {
      const [state] = await tx.insert(states).values({ name: s.state, createdAt: createdAt() }).returning();
      for (const d of s.districts) {
        const [district] = await tx
          .insert(districts)
          .values({ name: d.name, stateId: state.id, createdAt: createdAt() })
          .returning();
        for (const t of d.tehsils) {
          const [tehsil] = await tx
            .insert(tehsils)
            .values({ name: t, districtId: district.id, stateId: state.id, createdAt: createdAt() })
            .returning();
          places.push({ districtId: district.id, tehsilId: tehsil.id });
        }
      }
    }
    // Two providers and three products whose commissions add up to 100% (stored in hundredths).
    const [payu] = await tx
      .insert(providers)
      .values({ name: 'PayU Sprint Bank', createdAt: createdAt() })
      .returning();
    const [nsdl] = await tx
      .insert(providers)
      .values({ name: 'NSDL Payments Bank', createdAt: createdAt() })
      .returning();
    const split = (admin: number, md: number, d: number, r: number, c: number) => ({
      adminCommission: admin,
      masterDistributorCommission: md,
      distributorCommission: d,
      retailerCommission: r,
      customerCommission: c,
    });
    await tx.insert(products).values([
      {
        providerId: payu.id,
        name: 'Saving Account',
        amountPaise: 50_000,
        ...split(4000, 1500, 1500, 2000, 1000),
        url: 'https://sandbox.payusprint.example/saving',
        reqType: 'POST',
        urlData: 'PAYUSPRINT-SAVING',
        createdAt: createdAt(),
      },
      {
        providerId: payu.id,
        name: 'Current Account',
        amountPaise: 75_050,
        ...split(3333, 1667, 1500, 2500, 1000),
        url: 'https://sandbox.payusprint.example/current',
        reqType: 'POST',
        urlData: 'PAYUSPRINT-CURRENT',
        createdAt: createdAt(),
      },
      {
        providerId: nsdl.id,
        name: 'Sole Proprietor Account',
        amountPaise: 100_000,
        ...split(3000, 2000, 2000, 2500, 500),
        url: 'https://sandbox.nsdl.example/sole-proprietor',
        reqType: 'GET',
        urlData: 'PAYUSPRINT-SOLE-PROPRIETOR',
        createdAt: createdAt(),
      },
    ]);

    const place = (i: number) => places[i % places.length];
    type NewUser = typeof users.$inferInsert;
    const add = async (
      u: Omit<NewUser, 'id' | 'path' | 'passwordHash'> & { parentPath?: string | null },
      initial = false,
    ) => {
      const id = randomUUID();
      const { parentPath, ...rest } = u;
      const row: NewUser = {
        ...rest,
        id,
        path: childPath(parentPath ?? null, id),
        passwordHash: initial ? initialHash : demoHash,
        passwordUpdatedAt: initial ? null : new Date(now),
        createdAt: createdAt(),
      };
      await tx.insert(users).values(row);
      await tx.insert(wallets).values({ userId: id });
      await countNewUser(tx, { path: row.path, type: row.type, status: row.status ?? UserStatus.ACTIVE });
      return row as NewUser & { id: string; path: string };
    };
    const person = (prefix: string, index: number, name: string, type: UserType) => {
      const mobile = `${prefix}${String(index).padStart(8, '0')}`;
      return { type, name, mobile, userName: mobile, email: `${mobile}@demo.tierdesk.in`, ...place(index) };
    };

    await add(person('90', 1, 'Anita Sharma', UserType.EMPLOYEE));
    await add(person('90', 2, 'Rohit Verma', UserType.EMPLOYEE), true);

    const mdNames = ['Suresh Traders', 'Lakshmi Enterprises'];
    const dNames = ['Jaipur Digital Seva', 'Marwar Money Point', 'Pune Pay Hub', 'Vidarbha Finserve'];
    const rNames = [
      'Ganesh Mobile Store',
      'Shree Kirana',
      'Om Sai Telecom',
      'Balaji Xerox',
      'Mahalaxmi General',
      'Sai Cyber Cafe',
      'Krishna Medicals',
      'Annapurna Stores',
    ];
    const cNames = [
      'Ramesh Kumar',
      'Sunita Devi',
      'Arjun Singh',
      'Pooja Patel',
      'Vikram Rathore',
      'Meena Kumari',
      'Deepak Yadav',
      'Kavita Joshi',
      'Sanjay Gupta',
      'Neha Agarwal',
      'Rahul Deshmukh',
      'Priya Kulkarni',
      'Amit Pawar',
      'Sneha Jadhav',
      'Manoj Tiwari',
      'Rekha Mishra',
      'Ajay Chauhan',
      'Geeta Saini',
      'Nitin More',
      'Asha Bhosale',
    ];
    const customersPerRetailer = [3, 3, 3, 3, 2, 2, 2, 2];
    let customerIndex = 0;
    for (let m = 0; m < 2; m++) {
      const md = await add({
        ...person('91', m + 1, mdNames[m], UserType.MASTER_DISTRIBUTOR),
        // The seed's fixed master distributor defaults (section 9).
        isMaster: true,
        distributorCode: 'abcA12',
        masterDistributorCommission: '10.5',
      });
      for (let d = m * 2; d < m * 2 + 2; d++) {
        const dist = await add({
          ...person('92', d + 1, dNames[d], UserType.DISTRIBUTOR),
          masterDistributorId: md.id,
          isMaster: false,
          parentPath: md.path,
        });
        for (let r = d * 2; r < d * 2 + 2; r++) {
          const retailer = await add({
            ...person('93', r + 1, rNames[r], UserType.RETAILER),
            masterDistributorId: md.id,
            distributorId: dist.id,
            status: r === 7 ? UserStatus.INACTIVE : UserStatus.ACTIVE,
            parentPath: dist.path,
          });
          for (let c = 0; c < customersPerRetailer[r]; c++) {
            customerIndex++;
            await add({
              ...person('94', customerIndex, cNames[customerIndex - 1], UserType.CUSTOMER),
              masterDistributorId: md.id,
              distributorId: dist.id,
              retailerId: retailer.id,
              panId: `ABCDE${String(1000 + customerIndex)}F`,
              ...demoAadhar(cipher, customerIndex),
              parentPath: retailer.path,
            });
          }
        }
      }
    }
  });
}
