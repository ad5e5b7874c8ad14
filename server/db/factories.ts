// Pieces of test data that need nothing but the database layer; the builders that go through the services are in
// server/factories.ts.

let sequence = 0;
/** A short unique suffix so factories never collide, within one test run or across runs. */
export function uniqueSuffix(): string {
  sequence += 1;
  return `${Date.now().toString(36)}${process.pid.toString(36)}${sequence}`;
}

export interface BuiltAccount {
  companyId: number;
  companyName: string;
  userId: number;
  email: string;
  password: string;
}
