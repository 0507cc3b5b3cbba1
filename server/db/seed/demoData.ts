import type { Overage } from "#resources/overage";
// The demo operator, its catalog and its subscribers: pure data, applied by ./seedDatabase.ts.
// Demo sign-ins (design.md §4) use fixed uids so the database and the Auth emulator always agree.

export interface PlanSeed {
  code: string;
  name: string;
  kind: "prepaid" | "postpaid";
  status: "draft" | "active" | "retired";
  priceAmount: number;
  dataMb: number | null;
  voiceMinutes: number | null;
  sms: number | null;
  features: string[];
  /** The Spanish name and features (issue 25). */
  translations?: { es: { name: string; features: string[] } };
  /** Rates past the allowance (issue 24); absent or null = capped for every type. */
  overage?: Overage | null;
  /** `pool`: the data is shared by the account's lines and the price is per line (issue 28). */
  sharing?: "none" | "pool";
}

export interface LineSeed {
  msisdn: string;
  iccid: string;
  simType: "physical" | "esim";
  planCode: string;
  status: "pending" | "active" | "suspended" | "terminated";
  suspendReason?: "lost" | "stolen" | "non_payment" | "request";
  cycleDay: number;
}

/** A past movement on a prepaid ledger, oldest first. */
export interface LedgerSeed {
  kind: "top_up" | "charge" | "adjustment";
  amount: number;
  reason: string;
  daysAgo: number;
}

/** A past bill of a postpaid account: `cyclesAgo` 0 is the last cycle whose due date has passed. */
export interface InvoiceSeed {
  cyclesAgo: number;
  status: "paid" | "overdue";
  /** Usage beyond the allowance billed with the plan (the rating's `overage` charge of the first line). */
  overage?: {
    usageType: "data" | "voice" | "sms";
    roamingZone: "home" | "canada_mexico" | "europe" | "rest_of_world";
    amount: number;
    reason: string;
  };
}

export interface AccountSeed {
  ownerUid: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  type: "prepaid" | "postpaid";
  lines: LineSeed[];
  ledger?: LedgerSeed[];
  invoices?: InvoiceSeed[];
}

export interface OperatorSeed {
  code: string;
  name: string;
  currency: string;
  timezone: string;
  /** Settings the seed guarantees (merged under any an admin changed later). */
  settings?: OperatorSettingsSeed;
  plans: PlanSeed[];
  /** Add-on offerings (data and roaming passes), keyed by code. */
  addOns?: AddOnSeed[];
  accounts: AccountSeed[];
  /** Free numbers of the operator's inventory (issue 28): area code, then the first and last 7-digit local numbers. */
  numbers?: { areaCode: string; from: number; to: number }[];
}

export interface AddOnSeed {
  code: string;
  name: string;
  kind: "data" | "roaming";
  roamingZone: "canada_mexico" | "europe" | "rest_of_world" | null;
  status: "draft" | "active" | "retired";
  priceAmount: number;
  dataMb: number;
  validityDays: number;
  /** The Spanish name (issue 25). */
  translations?: { es: { name: string } };
}

export interface OperatorSettingsSeed {
  /** Which gateway takes card top-ups: "" = none (card top-up unavailable, vouchers only), "sandbox" = the local test gateway. */
  topUpPayment: string;
  /** Tax on postpaid bills, in basis points (825 = 8.25 %). */
  taxRateBps: number;
  /** Days from a bill's issue to its due date. */
  billDueDays: number;
  /** Days past the due date before the lines of an unpaid account are suspended for non-payment. */
  overdueGraceDays: number;
}

export interface DemoUser {
  uid: string;
  email: string;
  password: string;
  displayName: string;
  role: "subscriber" | "agent" | "admin";
  operator: string;
}

export const DEMO_PASSWORD = "Demo-2026!";

export const demoUsers: DemoUser[] = [
  {
    uid: "demo-alex",
    email: "alex@example.com",
    password: DEMO_PASSWORD,
    displayName: "Alex Rivera",
    role: "subscriber",
    operator: "ATT",
  },
  {
    uid: "demo-sam",
    email: "sam@example.com",
    password: DEMO_PASSWORD,
    displayName: "Sam Chen",
    role: "subscriber",
    operator: "ATT",
  },
  {
    uid: "demo-agent",
    email: "agent@att.example",
    password: DEMO_PASSWORD,
    displayName: "Casey Agent",
    role: "agent",
    operator: "ATT",
  },
  {
    uid: "demo-admin",
    email: "admin@att.example",
    password: DEMO_PASSWORD,
    displayName: "Morgan Admin",
    role: "admin",
    operator: "ATT",
  },
];

const GB = 1024;
const usd = (amount: number) => ({ amount, currency: "USD" });
/** Prepaid: data stops at the allowance (buy a pass); calls and texts past it come off the balance. */
const prepaidOverage: Overage = {
  data: null,
  voice: { price: usd(10) },
  sms: { price: usd(5) },
  roaming: { canada_mexico: { data: null, voice: { price: usd(25) }, sms: { price: usd(10) } } },
};
/** Postpaid: $0.01 per MB past the allowance ($10.24 a GB), dearer abroad; billed with the cycle. */
const postpaidOverage: Overage = {
  data: { unitMb: 1, price: usd(1) },
  voice: { price: usd(5) },
  sms: { price: usd(2) },
  roaming: {
    canada_mexico: { data: { unitMb: 1, price: usd(2) }, voice: { price: usd(15) }, sms: { price: usd(5) } },
    europe: { data: { unitMb: 1, price: usd(5) }, voice: { price: usd(50) }, sms: { price: usd(25) } },
  },
};

const attPlans: PlanSeed[] = [
  {
    code: "PRE_5GB",
    name: "Prepaid 5 GB",
    kind: "prepaid",
    status: "active",
    priceAmount: 2500,
    dataMb: 5 * GB,
    voiceMinutes: 500,
    sms: 1000,
    features: ["Talk & text in US"],
    translations: { es: { name: "Prepago 5 GB", features: ["Llamadas y mensajes en EE. UU."] } },
    overage: prepaidOverage,
  },
  {
    code: "PRE_15GB",
    name: "Prepaid 15 GB",
    kind: "prepaid",
    status: "active",
    priceAmount: 3500,
    dataMb: 15 * GB,
    voiceMinutes: null,
    sms: null,
    features: ["Unlimited talk & text", "Mobile hotspot"],
    translations: {
      es: { name: "Prepago 15 GB", features: ["Llamadas y mensajes ilimitados", "Punto de acceso móvil"] },
    },
    overage: prepaidOverage,
  },
  {
    code: "PRE_UNL",
    name: "Prepaid Unlimited",
    kind: "prepaid",
    status: "active",
    priceAmount: 5000,
    dataMb: null,
    voiceMinutes: null,
    sms: null,
    features: ["Unlimited talk & text", "Mexico & Canada roaming"],
    translations: {
      es: { name: "Prepago Ilimitado", features: ["Llamadas y mensajes ilimitados", "Roaming en México y Canadá"] },
    },
  },
  {
    code: "PRE_2GB_LEGACY",
    name: "Prepaid 2 GB (legacy)",
    kind: "prepaid",
    status: "retired",
    priceAmount: 1500,
    dataMb: 2 * GB,
    voiceMinutes: 300,
    sms: 500,
    features: [],
    translations: { es: { name: "Prepago 2 GB (antiguo)", features: [] } },
    overage: prepaidOverage,
  },
  {
    code: "POST_10GB",
    name: "Postpaid Starter 10 GB",
    kind: "postpaid",
    status: "active",
    priceAmount: 4500,
    dataMb: 10 * GB,
    voiceMinutes: null,
    sms: null,
    features: ["Unlimited talk & text"],
    translations: { es: { name: "Pospago Inicial 10 GB", features: ["Llamadas y mensajes ilimitados"] } },
    overage: postpaidOverage,
  },
  {
    code: "POST_50GB",
    name: "Postpaid Extra 50 GB",
    kind: "postpaid",
    status: "active",
    priceAmount: 6500,
    dataMb: 50 * GB,
    voiceMinutes: null,
    sms: null,
    features: ["Unlimited talk & text", "15 GB hotspot", "HD streaming"],
    translations: {
      es: {
        name: "Pospago Extra 50 GB",
        features: ["Llamadas y mensajes ilimitados", "Punto de acceso de 15 GB", "Streaming en HD"],
      },
    },
    overage: postpaidOverage,
  },
  {
    code: "POST_PREMIUM",
    name: "Postpaid Premium Unlimited",
    kind: "postpaid",
    status: "active",
    priceAmount: 8500,
    dataMb: null,
    voiceMinutes: null,
    sms: null,
    features: ["Unlimited talk & text", "50 GB hotspot", "4K streaming", "International roaming pass"],
    translations: {
      es: {
        name: "Pospago Premium Ilimitado",
        features: [
          "Llamadas y mensajes ilimitados",
          "Punto de acceso de 50 GB",
          "Streaming en 4K",
          "Pase de roaming internacional",
        ],
      },
    },
  },
  {
    // A shared plan (issue 28): 30 GB for every line of the account together, $30 per line; data
    // stops for every line when the pool is used up (no data rate past it), calls and texts unlimited.
    code: "POST_FAMILY_30GB",
    name: "Family Share 30 GB",
    kind: "postpaid",
    status: "active",
    sharing: "pool",
    priceAmount: 3000,
    dataMb: 30 * GB,
    voiceMinutes: null,
    sms: null,
    features: ["Unlimited talk & text", "Data shared by every line"],
    translations: {
      es: {
        name: "Familia Compartido 30 GB",
        features: ["Llamadas y mensajes ilimitados", "Datos compartidos por todas las líneas"],
      },
    },
    overage: { ...postpaidOverage, data: null, roaming: {} },
  },
  {
    code: "POST_FAMILY_DRAFT",
    name: "Postpaid Family (coming soon)",
    kind: "postpaid",
    status: "draft",
    priceAmount: 12000,
    dataMb: null,
    voiceMinutes: null,
    sms: null,
    features: ["Up to 4 lines"],
    translations: { es: { name: "Pospago Familiar (próximamente)", features: ["Hasta 4 líneas"] } },
  },
];

const iccid = (n: number) => `8901410${String(n).padStart(12, "0")}`;

const FIRST = ["Jordan", "Taylor", "Riley", "Avery", "Quinn", "Harper", "Rowan", "Emerson", "Parker", "Reese"];
const LAST = ["Garcia", "Nguyen", "Smith", "Okafor", "Kowalski", "Silva", "Haddad", "Jensen"];

/** Subscribers without a sign-in, so staff lists have rows to page, sort and search. */
function generatedAccounts(count: number): AccountSeed[] {
  const planCodes = ["PRE_5GB", "PRE_15GB", "PRE_UNL", "POST_10GB", "POST_50GB", "POST_PREMIUM"];
  return Array.from({ length: count }, (_, i) => {
    const n = i + 10; // +12025550110 onwards; 0101–0103 belong to the demo sign-ins
    const planCode = planCodes[i % planCodes.length]!;
    const suspended = i % 9 === 4;
    return {
      ownerUid: null,
      name: `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`,
      email: null,
      phone: null,
      type: planCode.startsWith("PRE") ? "prepaid" : "postpaid",
      lines: [
        {
          msisdn: `+120255501${String(n).padStart(2, "0")}`,
          iccid: iccid(1000 + n),
          simType: i % 3 === 0 ? "esim" : "physical",
          planCode,
          status: suspended ? "suspended" : "active",
          ...(suspended ? { suspendReason: "request" as const } : {}),
          cycleDay: (i % 28) + 1,
        },
      ],
    } satisfies AccountSeed;
  });
}

export const attSeed: OperatorSeed = {
  code: "ATT",
  name: "AT&T",
  currency: "USD",
  timezone: "America/New_York",
  // The build-time "top-up payment setting" is empty for ATT: no card top-ups, vouchers only.
  settings: { topUpPayment: "", taxRateBps: 825, billDueDays: 14, overdueGraceDays: 10 },
  plans: attPlans,
  addOns: [
    {
      code: "DATA_1GB",
      name: "1 GB data pass",
      kind: "data",
      roamingZone: null,
      status: "active",
      priceAmount: 1000,
      dataMb: 1024,
      validityDays: 30,
      translations: { es: { name: "Pase de 1 GB" } },
    },
    {
      code: "DATA_5GB_7D",
      name: "5 GB for 7 days",
      kind: "data",
      roamingZone: null,
      status: "active",
      priceAmount: 1500,
      dataMb: 5 * 1024,
      validityDays: 7,
      translations: { es: { name: "5 GB por 7 días" } },
    },
    {
      code: "ROAM_EU_7D",
      name: "Europe pass, 7 days",
      kind: "roaming",
      roamingZone: "europe",
      status: "active",
      priceAmount: 3500,
      dataMb: 2048,
      validityDays: 7,
      translations: { es: { name: "Pase Europa, 7 días" } },
    },
    {
      code: "ROAM_NA_10D",
      name: "Canada & Mexico pass, 10 days",
      kind: "roaming",
      roamingZone: "canada_mexico",
      status: "active",
      priceAmount: 2000,
      dataMb: 3072,
      validityDays: 10,
      translations: { es: { name: "Pase Canadá y México, 10 días" } },
    },
    {
      code: "ROAM_WORLD_OLD",
      name: "World pass (old)",
      kind: "roaming",
      roamingZone: "rest_of_world",
      status: "retired",
      priceAmount: 6000,
      dataMb: 1024,
      validityDays: 7,
      translations: { es: { name: "Pase Mundo (antiguo)" } },
    },
    {
      code: "DATA_20GB_DRAFT",
      name: "20 GB pass (coming soon)",
      kind: "data",
      roamingZone: null,
      status: "draft",
      priceAmount: 2500,
      dataMb: 20 * 1024,
      validityDays: 30,
      translations: { es: { name: "Pase de 20 GB (próximamente)" } },
    },
  ],
  accounts: [
    {
      ownerUid: "demo-alex",
      name: "Alex Rivera",
      email: "alex@example.com",
      phone: "+12025550101",
      type: "prepaid",
      lines: [
        {
          msisdn: "+12025550101",
          iccid: iccid(101),
          simType: "esim",
          planCode: "PRE_15GB",
          status: "active",
          cycleDay: 5,
        },
      ],
      ledger: [
        { kind: "top_up", amount: 5000, reason: "Voucher top-up", daysAgo: 48 },
        { kind: "charge", amount: 3500, reason: "Prepaid 15 GB: monthly plan", daysAgo: 47 },
        { kind: "top_up", amount: 2000, reason: "Voucher top-up", daysAgo: 25 },
        { kind: "top_up", amount: 2500, reason: "Voucher top-up", daysAgo: 19 },
        { kind: "charge", amount: 3500, reason: "Prepaid 15 GB: monthly plan", daysAgo: 18 },
        { kind: "top_up", amount: 1500, reason: "Voucher top-up", daysAgo: 6 },
      ],
    },
    {
      ownerUid: "demo-alex",
      name: "Alex Rivera",
      email: "alex@example.com",
      phone: "+12025550101",
      type: "postpaid",
      lines: [
        {
          msisdn: "+12025550102",
          iccid: iccid(102),
          simType: "physical",
          planCode: "POST_50GB",
          status: "active",
          cycleDay: 12,
        },
      ],
      invoices: [
        { cyclesAgo: 2, status: "paid" },
        { cyclesAgo: 1, status: "paid" },
        {
          cyclesAgo: 0,
          status: "overdue",
          overage: {
            usageType: "data",
            roamingZone: "canada_mexico",
            amount: 1500,
            reason: "1.5 GB of data beyond the allowance in Canada & Mexico",
          },
        },
      ],
    },
    {
      ownerUid: "demo-sam",
      name: "Sam Chen",
      email: "sam@example.com",
      phone: "+12025550103",
      type: "prepaid",
      lines: [
        {
          msisdn: "+12025550103",
          iccid: iccid(103),
          simType: "physical",
          planCode: "PRE_5GB",
          status: "active",
          cycleDay: 20,
        },
      ],
    },
    ...generatedAccounts(40),
  ],
  // The demo's lines are (202) 555-01xx: new lines pick from (202) 555-1000 to 1249, or nearby (301).
  numbers: [
    { areaCode: "202", from: 5551000, to: 5551249 },
    { areaCode: "301", from: 5551000, to: 5551049 },
  ],
};
