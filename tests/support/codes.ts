// The coded error a promise rejects with ("no error" when it resolves); anything that is not a CasegraphError is rethrown.
import { CasegraphError } from "@/lib/domain/failure-codes";

export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof CasegraphError) return err.code;
    throw err;
  }
  return "no error";
}
