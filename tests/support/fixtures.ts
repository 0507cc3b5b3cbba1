import type { DemoUser, OperatorSeed } from "../../server/db/seed/demoData";
import { DEMO_PASSWORD } from "../../server/db/seed/demoData";

/** A second operator, so tests can prove one operator's data never reaches another's users. */
export const otherOperatorSeed: OperatorSeed = {
  code: "TMO",
  name: "Other Mobile",
  currency: "USD",
  timezone: "America/Los_Angeles",
  plans: [
    {
      code: "TMO_PRE",
      name: "Other Prepaid",
      kind: "prepaid",
      status: "active",
      priceAmount: 3000,
      dataMb: 8192,
      voiceMinutes: null,
      sms: null,
      features: [],
    },
  ],
  accounts: [
    {
      ownerUid: "tmo-taylor",
      name: "Taylor Other",
      email: "taylor@tmo.example",
      phone: "+13105550199",
      type: "prepaid",
      lines: [
        {
          msisdn: "+13105550199",
          iccid: "8901260000000000199",
          simType: "physical",
          planCode: "TMO_PRE",
          status: "active",
          cycleDay: 3,
        },
      ],
    },
  ],
  numbers: [{ areaCode: "310", from: 5551000, to: 5551009 }],
};

export const otherOperatorUsers: DemoUser[] = [
  {
    uid: "tmo-taylor",
    email: "taylor@tmo.example",
    password: DEMO_PASSWORD,
    displayName: "Taylor Other",
    role: "subscriber",
    operator: "TMO",
  },
  {
    uid: "tmo-agent",
    email: "agent@tmo.example",
    password: DEMO_PASSWORD,
    displayName: "Other Agent",
    role: "agent",
    operator: "TMO",
  },
  {
    uid: "tmo-admin",
    email: "admin@tmo.example",
    password: DEMO_PASSWORD,
    displayName: "Other Admin",
    role: "admin",
    operator: "TMO",
  },
];

/** The sign-in emails of the seeded users the integration suites act as (password DEMO_PASSWORD). */
export const ALEX = "alex@example.com";
export const SAM = "sam@example.com";
export const AGENT = "agent@att.example";
export const ADMIN = "admin@att.example";
export const TAYLOR = "taylor@tmo.example";
export const TMO_AGENT = "agent@tmo.example";
export const TMO_ADMIN = "admin@tmo.example";
